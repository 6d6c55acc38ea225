import { type MailProvider, PROVIDER_NAMES } from "../auth/providers.ts";

/** The article goes by the name's sound ("an Outlook", "a Gmail"), so it is listed, not guessed. */
const ARTICLE: Record<MailProvider, "a" | "an"> = { gmail: "a", outlook: "an" };

/** "a Gmail account", "an Outlook account". */
export function providerAccount(provider: MailProvider): string {
  return `${ARTICLE[provider]} ${PROVIDER_NAMES[provider]} account`;
}

/** The link confirmation's title: "Link an Outlook account?". */
export function linkQuestion(provider: MailProvider): string {
  return `Link ${providerAccount(provider)}?`;
}
