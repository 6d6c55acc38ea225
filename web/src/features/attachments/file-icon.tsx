import type { FileKind } from "./format.ts";

/** The band colour and the short label each kind of file carries on its icon. */
const LOOK: Record<FileKind, { label: string; band: string }> = {
  pdf: { label: "PDF", band: "#dc2626" },
  image: { label: "IMG", band: "#0d9488" },
  document: { label: "DOC", band: "#2563eb" },
  spreadsheet: { label: "XLS", band: "#16a34a" },
  presentation: { label: "PPT", band: "#ea580c" },
  archive: { label: "ZIP", band: "#a16207" },
  calendar: { label: "ICS", band: "#7c3aed" },
  message: { label: "EML", band: "#4f46e5" },
  audio: { label: "AUD", band: "#db2777" },
  video: { label: "VID", band: "#9333ea" },
  text: { label: "TXT", band: "#475569" },
  other: { label: "FILE", band: "#64748b" },
};

/** A sheet of paper with a folded corner and a coloured band naming the kind of file. Decorative. */
export function FileIcon({ kind, className = "h-9 w-8" }: { kind: FileKind; className?: string }) {
  const { label, band } = LOOK[kind];
  return (
    <svg viewBox="0 0 32 36" className={className} aria-hidden="true" data-kind={kind}>
      <path d="M4 1h17l7 7v26a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1z" fill="#fff" stroke="#94a3b8" />
      <path d="M21 1v6a1 1 0 0 0 1 1h6" fill="none" stroke="#94a3b8" />
      <rect x="1" y="19" width={label.length > 3 ? 26 : 22} height="11" rx="2" fill={band} />
      <text
        x={label.length > 3 ? 14 : 12}
        y="27.5"
        textAnchor="middle"
        fontSize="8"
        fontWeight="700"
        fontFamily="system-ui, sans-serif"
        fill="#fff"
      >
        {label}
      </text>
    </svg>
  );
}
