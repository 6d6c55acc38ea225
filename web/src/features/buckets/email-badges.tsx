import type { Email } from "../../../../contract/mail.ts";

/** Importance 0-10 (spec section 3) as a priority people can scan. */
export function importancePriority(importance: number): "High" | "Medium" | "Low" {
  if (importance >= 7) return "High";
  if (importance >= 4) return "Medium";
  return "Low";
}

const PRIORITY_STYLE = {
  High: "bg-red-50 text-red-800 ring-red-200",
  Medium: "bg-amber-50 text-amber-900 ring-amber-200",
  Low: "bg-slate-50 text-slate-700 ring-slate-200",
} as const;

/** The AI importance priority and category badges, when the analysis has them. */
export function AiBadges({ email }: { email: Pick<Email, "aiAnalysis"> }) {
  const importance = email.aiAnalysis?.importance;
  const category = email.aiAnalysis?.category;
  if (importance === undefined && !category) return null;
  const priority = importance === undefined ? null : importancePriority(importance);
  return (
    <span className="flex flex-wrap gap-1">
      {priority !== null && importance !== undefined ? (
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${PRIORITY_STYLE[priority]}`}
          title={`Importance ${importance}/10`}
        >
          {priority} priority
          <span className="sr-only"> (importance {importance} of 10)</span>
        </span>
      ) : null}
      {category ? (
        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-900 ring-1 ring-brand-100 ring-inset">
          {category}
        </span>
      ) : null}
    </span>
  );
}
