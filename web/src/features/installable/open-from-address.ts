import { useEffect } from "react";
import { useLocation, useSearch } from "wouter";

/**
 * Opens the reader for `/dashboard?email=<id>`, the address a mail notification opens (issue 38),
 * on arrival and when a notification click moves an open tab there. The parameter is then dropped
 * so closing the reader and reloading does not open it again.
 */
export function useOpenEmailFromAddress(open: (emailId: string) => void): void {
  const search = useSearch();
  const [, navigate] = useLocation();
  useEffect(() => {
    const emailId = new URLSearchParams(search).get("email");
    if (!emailId) return;
    open(emailId);
    navigate("/dashboard", { replace: true });
  }, [search, open, navigate]);
}
