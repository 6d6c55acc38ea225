/**
 * Forwarding and alias services that re-send mail from their own address and put the original
 * sender into the display name ("newsletter@example.com [via Relay]" <x@mozmail.com>). The display
 * name then shows another address by design, not to deceive, so display-name checks step aside
 * and the original sender's domain stands in for the From domain.
 */
const RELAY_DOMAINS: readonly string[] = [
  "sneakemail.com",
  "spamgourmet.com",
  "mozmail.com",
  "relay.firefox.com",
  "simplelogin.co",
  "simplelogin.com",
  "simplelogin.fr",
  "aleeas.com",
  "slmail.me",
  "anonaddy.com",
  "anonaddy.me",
  "addy.io",
  "duck.com",
  "privaterelay.appleid.com",
  "33mail.com",
];

/** The relay service a host belongs to ("sneakemail.com" for "x.sneakemail.com"), or null. */
export function relayService(host: string): string | null {
  for (const domain of RELAY_DOMAINS) {
    if (host === domain || host.endsWith(`.${domain}`)) return domain;
  }
  return null;
}

/**
 * An address shown in a display name ("Alice alice@example.com"), or null. With `spelledOut`, the
 * "alice at example.com" form that some relays use counts too.
 */
export function addressInDisplayName(name: string, spelledOut = false): string | null {
  const address = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/i.exec(name)?.[0];
  if (address) return address;
  if (!spelledOut) return null;
  const spelled = /(?<![a-z0-9._%+-])([a-z0-9._%+-]+)\s+at\s+([a-z0-9-]+(?:\.[a-z0-9-]+)+)/i.exec(name);
  return spelled ? `${spelled[1]}@${spelled[2]}` : null;
}
