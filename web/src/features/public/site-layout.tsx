import type { ReactNode } from "react";
import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";
import { useScrollToHash } from "./use-scroll-to-hash.ts";

/** Header, main landmark (the skip link's target) and footer shared by every public page. */
export function SiteLayout({ children }: { children: ReactNode }) {
  useScrollToHash();
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
