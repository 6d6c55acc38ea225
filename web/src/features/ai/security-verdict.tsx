import type { SecurityScan } from "../../../../contract/ai.ts";

const VERDICT = {
  safe: { label: "Safe", style: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  suspicious: { label: "Suspicious", style: "bg-amber-50 text-amber-900 ring-amber-300" },
  dangerous: { label: "Dangerous", style: "bg-red-50 text-red-800 ring-red-300" },
} as const;

/** The security scan's verdict as a badge (reader header, Insights overview). */
export function SecurityBadge({ scan }: { scan: SecurityScan }) {
  const v = VERDICT[scan.verdict];
  return (
    <span
      data-testid="security-verdict"
      data-verdict={scan.verdict}
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${v.style}`}
    >
      <span className="sr-only">Security verdict: </span>
      {v.label}
    </span>
  );
}

/** The verdict with the reasons behind it; `warnOnly` shows nothing for safe mail (the reader). */
export function SecurityVerdict({ scan, warnOnly = false }: { scan: SecurityScan; warnOnly?: boolean }) {
  if (warnOnly && scan.verdict === "safe") return null;
  const alarming = scan.verdict !== "safe";
  return (
    <div
      className={`rounded-lg p-3 text-sm ${
        scan.verdict === "dangerous"
          ? "bg-red-50 text-red-900"
          : scan.verdict === "suspicious"
            ? "bg-amber-50 text-amber-950"
            : "bg-slate-50 text-slate-700"
      }`}
      role={alarming && warnOnly ? "alert" : undefined}
    >
      {warnOnly ? (
        // The reader's header carries the badge; here the warning says it in words.
        <p className="font-medium">This email looks {scan.verdict}.</p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 font-medium">
          Security check <SecurityBadge scan={scan} />
        </p>
      )}
      {scan.reasons.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Security findings">
          {scan.reasons.map((r) => (
            <li key={`${r.code}-${r.message}`}>{r.message}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1">No warning signs found.</p>
      )}
    </div>
  );
}
