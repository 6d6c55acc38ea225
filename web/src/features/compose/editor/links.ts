/** Schemes a link in a mail may have (issue 36): the server keeps the same ones. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** True for an absolute http(s) or mailto address as the browser's URL parser reads it. */
export function isAllowedLink(value: string): boolean {
  try {
    return LINK_PROTOCOLS.has(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}

/**
 * What the person typed in the link prompt, as the address to link: kept when it is an allowed
 * link; an email address becomes mailto:, a bare host name (example.com/page) https://; null
 * when none of these fits (javascript:, data:, a relative path, words).
 */
export function linkFromInput(input: string): string | null {
  const value = input.trim();
  if (value === "") return null;
  if (isAllowedLink(value)) return new URL(value).href;
  // A scheme we do not allow stays refused rather than becoming https://javascript:...
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[^:/]+:\d/.test(value)) return null;
  if (/^[^\s@/]+@[^\s@/.]+(?:\.[^\s@/.]+)+$/.test(value)) return `mailto:${value}`;
  if (/^[^\s/?#.]+(?:\.[^\s/?#.]+)+(?:[/?#]\S*)?$/.test(value)) {
    const candidate = `https://${value}`;
    return isAllowedLink(candidate) ? new URL(candidate).href : null;
  }
  return null;
}
