import type { ReactNode } from "react";
import { SiteLayout } from "./site-layout.tsx";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** Shared frame for the terms and the privacy policy: title, date, contents and numbered sections. */
export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <SiteLayout>
      <div className="border-b border-slate-200 bg-brand-50/60">
        <div className="mx-auto max-w-3xl px-4 pt-14 pb-10 sm:px-6">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Legal</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-3 text-sm text-slate-600">Last updated: {updated}</p>
          <div className="mt-6 text-lg leading-8 text-slate-700">{intro}</div>
        </div>
      </div>
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <nav aria-label="Contents" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
          <h2 className="text-sm font-semibold text-slate-900">Contents</h2>
          <ol className="mt-3 grid list-inside list-decimal gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
            {sections.map((s) => (
              <li key={s.id} className="text-slate-600">
                <a href={`#${s.id}`} className="text-brand-700 hover:underline">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="mt-12 space-y-12">
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="scroll-mt-20">
              <h2 id={`${s.id}-title`} className="text-2xl font-bold text-slate-900">
                {i + 1}. {s.title}
              </h2>
              <div className="mt-4 space-y-4 leading-7 text-slate-700 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-slate-900 [&_ul]:space-y-2">
                {s.body}
              </div>
            </section>
          ))}
        </div>
      </div>
    </SiteLayout>
  );
}
