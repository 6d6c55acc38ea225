import ipaddr from "ipaddr.js";

/**
 * IPv6 forms that carry an IPv4 address: IPv4-compatible (::/96) and IPv4-mapped (::ffff:0:0/96),
 * SIIT-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4
 * (2002::/16) and Teredo (2001::/32). A connection to one can end up at the IPv4 inside (through
 * the host's own stack, a NAT64 gateway or a tunnel), and that IPv4 may be private: none is used.
 */
function embedsIpv4(address: ipaddr.IPv6): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = address.parts;
  const zeroHead = a === 0 && b === 0 && c === 0 && d === 0;
  if (zeroHead && e === 0 && (f === 0 || f === 0xffff)) return true;
  if (zeroHead && e === 0xffff && f === 0) return true;
  if (a === 0x64 && b === 0xff9b && (c === 1 || (c === 0 && d === 0 && e === 0 && f === 0))) return true;
  if (a === 0x2002) return true;
  return a === 0x2001 && b === 0;
}

/**
 * True only for globally routable unicast addresses. Everything else (loopback, private,
 * link-local such as the 169.254.169.254 metadata service, unique-local, carrier NAT, multicast,
 * reserved, and every IPv6 form that embeds an IPv4 address) is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && embedsIpv4(parsed as ipaddr.IPv6)) return false;
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
