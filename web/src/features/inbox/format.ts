/** Short dates for list rows: the time today, the day this year, the full date otherwise. */
export function formatListDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (date.toDateString() === now.toDateString())
    return date.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  if (date.getFullYear() === now.getFullYear())
    return date.toLocaleDateString(undefined, { month: "short", day: "numeric" });
  return date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** The sender as people read it: the name when there is one, else the address. */
export function senderName(email: { fromName: string; fromAddress: string }): string {
  return email.fromName.trim() || email.fromAddress;
}

/** "1,234" whatever the browser locale, as the spec's figures are written. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
