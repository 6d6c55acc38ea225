import ipaddr from "ipaddr.js";

/**
 * True only for globally routable unicast addresses. Everything else (loopback, private,
 * link-local such as the 169.254.169.254 metadata service, unique-local, carrier NAT, multicast,
 * reserved, and IPv6 forms that embed IPv4 like ::ffff:127.0.0.1) is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns IPv4-mapped IPv6 into the IPv4 it carries, so ::ffff:10.0.0.1 is judged as 10.0.0.1.
  const parsed = ipaddr.process(address);
  return parsed.range() === "unicast";
}

/** A dotted IPv4 with four plain decimal parts, or an IPv6 literal: the only IP spellings we accept. */
export function isCanonicalIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (ipaddr.IPv6.isValid(bare) && bare.includes(":")) return true;
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(bare)) return false;
  return bare.split(".").every((p) => p === "0" || (!p.startsWith("0") && Number(p) <= 255));
}

/** Looks like an IP in some encoding (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1). */
export function looksLikeNumericHost(host: string): boolean {
  return /^[0-9.]+$/.test(host) || /^(0x[0-9a-f]+\.?)+$/i.test(host) || /(^|\.)0x[0-9a-f]+/i.test(host);
}
