import type { ReactNode } from "react";
import { Link } from "wouter";

/** The centred card that login, signup, the callback and logout share. */
export function AuthShell({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-white">
      <header className="px-6 py-5">
        <Link href="/" className="inline-flex items-center gap-2 text-lg font-bold text-slate-900">
          <span
            className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white"
            aria-hidden="true"
          >
            M
          </span>
          Mailwise
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:pt-12">
        <div
          className={`w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 ${wide ? "max-w-3xl" : "max-w-md"}`}
        >
          {children}
        </div>
      </main>
    </div>
  );
}
