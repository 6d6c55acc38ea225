import type { Email } from "../../../../contract/mail.ts";
import { formatAddressList, type ListedAddress, parseAddressList } from "./address-list.ts";

export type ReplyAllSource = Pick<Email, "fromName" | "fromAddress" | "to" | "cc">;

/**
 * Reply all's recipients (issue 36): To is the sender and the other To recipients, Cc the
 * original Cc; none of the person's own addresses (every linked account, any letter case) and
 * each address once, the first place it appears winning (To before Cc).
 */
export function replyAllRecipients(
  original: ReplyAllSource,
  ownAddresses: readonly string[],
): { to: ListedAddress[]; cc: ListedAddress[] } {
  const seen = new Set(ownAddresses.map((a) => a.trim().toLowerCase()));
  const keep = (list: ListedAddress[]) =>
    list.filter((entry) => {
      const key = entry.address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const to = keep([
    { name: original.fromName, address: original.fromAddress },
    ...parseAddressList(original.to),
  ]);
  const cc = keep(parseAddressList(original.cc));
  // Mail the person sent themselves to themselves only: answering goes back to the sender.
  if (to.length === 0 && cc.length === 0)
    return { to: [{ name: original.fromName, address: original.fromAddress }], cc: [] };
  return { to, cc };
}

/** The same, as the text of the compose form's To and Cc fields. */
export function replyAllFields(
  original: ReplyAllSource,
  ownAddresses: readonly string[],
): { to: string; cc: string } {
  const { to, cc } = replyAllRecipients(original, ownAddresses);
  return { to: formatAddressList(to), cc: formatAddressList(cc) };
}
