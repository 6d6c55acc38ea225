import { type ReactNode, useEffect, useId, useState } from "react";
import { Link, useLocation } from "wouter";
import { CloseIcon, LogoMark, MenuIcon } from "./icons.tsx";

const navLinkClass =
  "rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-slate-900";
const mobileLinkClass =
  "block rounded-lg px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 hover:text-slate-900";

/** In-page anchors on the landing page stay plain anchors; elsewhere they navigate home first. */
function SectionLink({ id, className, children }: { id: string; className: string; children: ReactNode }) {
  const [path] = useLocation();
  if (path === "/") {
    return (
      <a href={`#${id}`} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link href={`/#${id}`} className={className}>
      {children}
    </Link>
  );
}

function NavLinks({ className }: { className: string }) {
  return (
    <>
      <SectionLink id="features" className={className}>
        Features
      </SectionLink>
      <SectionLink id="about" className={className}>
        About
      </SectionLink>
      <Link href="/pricing" className={className}>
        Pricing
      </Link>
      <Link href="/pricing#faq" className={className}>
        FAQ
      </Link>
    </>
  );
}

export function Logo() {
  return (
    <Link href="/" className="flex items-center gap-2 rounded-md text-slate-900">
      <LogoMark />
      <span className="text-lg font-bold tracking-tight">Mailwise</span>
    </Link>
  );
}

/** The public site's sticky header with a collapsible menu below the md breakpoint. */
export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const [path] = useLocation();
  const menuId = useId();

  // A navigation closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: path is the trigger, not an input
  useEffect(() => setOpen(false), [path]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-700 focus:shadow"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <NavLinks className={navLinkClass} />
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Link href="/login" className={navLinkClass}>
            Sign In
          </Link>
          <Link
            href="/signup"
            className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700"
          >
            Get Started
          </Link>
        </div>
        <button
          type="button"
          className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? <CloseIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
          <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
        </button>
      </div>
      {open ? (
        <div id={menuId} className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg md:hidden">
          {/* Any link inside closes the menu, including same-page anchors that keep the path. */}
          <nav aria-label="Mobile" onClickCapture={() => setOpen(false)}>
            <NavLinks className={mobileLinkClass} />
            <div className="mt-3 grid grid-cols-2 gap-2 border-t border-slate-200 pt-4">
              <Link
                href="/login"
                className="rounded-lg border border-slate-300 px-4 py-2.5 text-center font-semibold text-slate-800 hover:bg-slate-50"
              >
                Sign In
              </Link>
              <Link
                href="/signup"
                className="rounded-lg bg-brand-600 px-4 py-2.5 text-center font-semibold text-white hover:bg-brand-700"
              >
                Get Started
              </Link>
            </div>
          </nav>
        </div>
      ) : null}
    </header>
  );
}
