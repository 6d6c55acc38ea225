/**
 * What the scan knows about who sent a message, for the checks whose verdict depends on it: the
 * same request ("update the payroll account", "buy gift cards") is routine from an authenticated
 * colleague and the classic fraud from a free-mail address that borrows a colleague's name.
 */
export interface SenderTrust {
  /** DMARC passed, or both DKIM and SPF did. */
  authenticated: boolean;
  /** A free-mail provider (gmail.com, outlook.com, ...): anyone can open such an account. */
  freeMail: boolean;
  /** The user's own organisation's domain. */
  ownDomain: boolean;
  /** A domain the user corresponds with. */
  contact: boolean;
  /** The display name is one of the user's colleagues while the address is not theirs. */
  borrowsColleagueName: string | null;
}

/** Trusted enough that a routine request from it is routine: own or contact domain, authenticated when we can tell. */
export function trustedSender(trust: SenderTrust, authKnown: boolean): boolean {
  if (trust.borrowsColleagueName) return false;
  if (!(trust.ownDomain || trust.contact)) return false;
  return trust.authenticated || !authKnown;
}

function nameKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\b(ceo|cfo|coo|cto|president|director|manager|office|mr|mrs|ms|dr)\b/g, " ")
    .replace(/[^a-z]+/g, " ")
    .trim();
}

/**
 * The colleague whose name the sender shows without being them: "Dana Whitfield" or "Dana
 * Whitfield CEO" writing from an address that is not Dana's. Matches the full name, first and
 * last, in either order.
 */
export function borrowedColleagueName(
  displayName: string,
  fromAddress: string,
  colleagues: ReadonlyArray<{ name: string; address: string }>,
): string | null {
  const shown = nameKey(displayName);
  if (!shown.includes(" ")) return null;
  const address = fromAddress.toLowerCase();
  for (const colleague of colleagues) {
    if (colleague.address.toLowerCase() === address) continue;
    const parts = nameKey(colleague.name).split(" ").filter(Boolean);
    if (parts.length < 2) continue;
    const words = new Set(shown.split(" "));
    if (parts.every((p) => words.has(p))) return colleague.name;
  }
  return null;
}
