import type { LookupAddress } from "node:dns";
import dns from "node:dns";
import { Agent, request } from "undici";
import { isCanonicalIpLiteral, isPublicAddress, looksLikeNumericHost } from "./address-policy.ts";

/** Why an outbound URL was refused; stable ids for logs and status records. */
export type BlockReason =
  | "invalid_url"
  | "scheme_not_allowed"
  | "credentials_in_url"
  | "port_not_allowed"
  | "odd_ip_encoding"
  | "private_address"
  | "dns_failed";

export class BlockedUrlError extends Error {
  override name = "BlockedUrlError";
  constructor(
    readonly reason: BlockReason,
    message: string,
  ) {
    super(message);
  }
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeFetchOptions {
  /**
   * host:port pairs that skip the scheme, port and address checks. Only tests set it (the
   * unsubscribe target there is a local server); empty by default.
   */
  allowHosts?: readonly string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** DNS resolution; injectable so tests can simulate a name that resolves to a private address. */
  resolve?: Resolver;
}

const defaultResolve: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Checks the URL's shape before any network activity. Returns the parsed URL and whether it is allow-listed. */
export function checkOutboundUrl(
  raw: string,
  allowHosts: readonly string[] = [],
): { url: URL; allowListed: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError("invalid_url", "Not a valid URL");
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(raw)) {
    throw new BlockedUrlError("credentials_in_url", "URLs with user@host are refused");
  }
  const allowListed = allowHosts.includes(url.host);
  if (allowListed) return { url, allowListed };
  if (url.protocol !== "https:")
    throw new BlockedUrlError("scheme_not_allowed", "Only https URLs are fetched");
  if (url.port !== "" && url.port !== "443")
    throw new BlockedUrlError("port_not_allowed", "Only port 443 is allowed");
  // WHATWG URL rewrites 2130706433, 0177.0.0.1 and 0x7f.1 to 127.0.0.1; look at what was written.
  const writtenHost = raw.replace(/^[a-z]+:\/\//i, "").split(/[/?#]/)[0] ?? "";
  const hostOnly = writtenHost.startsWith("[")
    ? writtenHost.replace(/\]:\d+$/, "]")
    : writtenHost.replace(/:\d+$/, "");
  if (looksLikeNumericHost(hostOnly) && !isCanonicalIpLiteral(hostOnly)) {
    throw new BlockedUrlError("odd_ip_encoding", "Numeric hosts must be plain dotted IPv4");
  }
  return { url, allowListed };
}

async function resolvePublic(hostname: string, resolve: Resolver): Promise<LookupAddress> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  let addresses: LookupAddress[];
  if (isCanonicalIpLiteral(bare)) {
    addresses = [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new BlockedUrlError("dns_failed", `Could not resolve ${bare}`);
    }
  }
  if (addresses.length === 0) throw new BlockedUrlError("dns_failed", `No address for ${bare}`);
  // Every answer must be public: an attacker's DNS can mix a public and a private record.
  for (const a of addresses) {
    if (!isPublicAddress(a.address)) {
      throw new BlockedUrlError("private_address", `${bare} resolves to a non-public address`);
    }
  }
  return addresses[0] as LookupAddress;
}

export interface SafeResponse {
  status: number;
  body: string;
  truncated: boolean;
}

/**
 * One outbound request that cannot be pointed at our own network: the resolved address is
 * checked and the socket connects to that same address (no second lookup for DNS rebinding to
 * exploit), redirects are not followed, time and response size are capped, and no cookies or
 * credentials are ever attached.
 */
export async function safeRequest(
  raw: string,
  init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string | Buffer },
  options: SafeFetchOptions = {},
): Promise<SafeResponse> {
  const { url, allowListed } = checkOutboundUrl(raw, options.allowHosts);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const resolve = options.resolve ?? defaultResolve;

  const pinned = allowListed ? undefined : await resolvePublic(url.hostname, resolve);
  const dispatcher = new Agent({
    connect: {
      timeout: timeoutMs,
      // The connection uses the address we already checked; TLS still verifies the hostname.
      lookup: (hostname, _opts, callback) => {
        if (pinned) {
          callback(null, [pinned]);
          return;
        }
        dns.lookup(hostname, { all: true }, callback);
      },
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // undici's request() never follows redirects on its own; a 3xx comes back as a 3xx.
  });
  try {
    const res = await request(url, {
      method: init.method,
      headers: { "user-agent": "Mailwise/1.0 (+unsubscribe)", ...init.headers },
      body: init.body,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    let received = 0;
    let truncated = false;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      received += buf.length;
      if (received > maxBytes) {
        truncated = true;
        res.body.destroy();
        break;
      }
      chunks.push(buf);
    }
    return { status: res.statusCode, body: Buffer.concat(chunks).toString("utf8"), truncated };
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}
