import { Link } from "wouter";
import { LogoMark } from "./icons.tsx";

export const CONTACT_EMAIL = "hello@mailwise.app";

const linkClass = "text-sm text-slate-300 transition-colors hover:text-white";

/** The public site's footer: product, legal and contact links. */
export function SiteFooter() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <div className="flex items-center gap-2 text-white">
            <LogoMark />
            <span className="text-lg font-bold tracking-tight">Mailwise</span>
          </div>
          <p className="mt-4 max-w-sm text-sm leading-6 text-slate-300">
            One AI-assisted inbox for all your Gmail and Outlook accounts. Sign in with OAuth 2.0; we never
            see or store your passwords.
          </p>
        </div>
        <nav aria-label="Product">
          <h2 className="text-sm font-semibold text-white">Product</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <Link href="/pricing" className={linkClass}>
                Pricing
              </Link>
            </li>
            <li>
              <Link href="/signup" className={linkClass}>
                Start free trial
              </Link>
            </li>
            <li>
              <a href={`mailto:${CONTACT_EMAIL}`} className={linkClass}>
                Contact us
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <Link href="/terms-of-service" className={linkClass}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link href="/privacy-policy" className={linkClass}>
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-400 sm:px-6">
          © {new Date().getFullYear()} Mailwise. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
