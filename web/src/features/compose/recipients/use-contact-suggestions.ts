import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { CONTACTS_QUERY_MAX, type Contact, type ContactList } from "../../../../../contract/contacts.ts";
import { apiRequest } from "../../../lib/api.ts";

/** Wait this long after the last keystroke before asking (one request per pause, not per key). */
const TYPING_PAUSE_MS = 120;
const LIMIT = 8;

/** Suggestions for what is being typed (GET /api/contacts), without `exclude`d addresses. */
export function useContactSuggestions(
  typed: string,
  enabled: boolean,
  exclude: ReadonlySet<string>,
): Contact[] {
  const [q, setQ] = useState("");
  const trimmed = typed.trim();
  // Longer than any prefix the server takes: nothing to suggest.
  const wanted = enabled && trimmed.length <= CONTACTS_QUERY_MAX ? trimmed : "";
  useEffect(() => {
    const timer = setTimeout(() => setQ(wanted), wanted === "" ? 0 : TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  const query = useQuery({
    queryKey: ["contacts", q],
    queryFn: ({ signal }) =>
      apiRequest<ContactList>("GET", `/api/contacts?q=${encodeURIComponent(q)}&limit=${LIMIT}`, undefined, {
        signal,
      }),
    enabled: q !== "",
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  if (wanted === "" || q === "") return [];
  return (query.data?.contacts ?? []).filter((c) => !exclude.has(c.address.toLowerCase()));
}
