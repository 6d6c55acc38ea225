/** Field styles shared by the AI forms (the compose dialog's look). */
export const FIELD =
  "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600";
export const SELECT = FIELD;
export const LABEL = "mb-1 block text-sm font-medium text-slate-700";
export const BADGE =
  "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";
