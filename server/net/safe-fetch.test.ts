import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "./address-policy.ts";
import { BlockedUrlError, checkOutboundUrl, type Resolver, safeRequest } from "./safe-fetch.ts";

async function blockedReason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof BlockedUrlError) return err.reason;
    throw err;
  }
  throw new Error("expected the request to be blocked");
}

describe("address policy", () => {
  it.each([
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::1", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["fe80::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["::", false],
    // Issue 13.5: every IPv6 form that embeds an IPv4 address, whatever the IPv4 inside.
    ["::127.0.0.1", false],
    ["::7f00:1", false],
    ["::8.8.8.8", false],
    ["::ffff:8.8.8.8", false],
    ["::ffff:7f00:1", false],
    ["::ffff:0:127.0.0.1", false],
    ["::ffff:0:8.8.8.8", false],
    ["64:ff9b::127.0.0.1", false],
    ["64:ff9b::808:808", false],
    ["64:ff9b:1::a00:1", false],
    ["2002:7f00:1::", false],
    ["2002:808:808::1", false],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
    ["2001::1", false],
    ["93.184.216.34", true],
    ["2001:4860:4860::8888", true],
    ["2a00:1450:4001::200e", true],
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["not-an-ip", false],
  ])("%s public=%s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("URL checks before any connection", () => {
  it.each([
    ["http://example.com/u", "scheme_not_allowed"],
    ["ftp://example.com/u", "scheme_not_allowed"],
    ["javascript:alert(1)", "scheme_not_allowed"],
    ["https://user@example.com/u", "credentials_in_url"],
    ["https://user:pw@example.com/u", "credentials_in_url"],
    ["https://example.com:8443/u", "port_not_allowed"],
    ["https://2130706433/u", "odd_ip_encoding"],
    ["https://0177.0.0.1/u", "odd_ip_encoding"],
    ["https://0x7f000001/u", "odd_ip_encoding"],
    ["https://0x7f.0.0.1/u", "odd_ip_encoding"],
    ["https://127.1/u", "odd_ip_encoding"],
    ["not a url", "invalid_url"],
  ])("%s -> %s", (url, reason) => {
    expect(() => checkOutboundUrl(url)).toThrowError(expect.objectContaining({ reason }));
  });

  it("accepts a plain https URL on the default port", () => {
    expect(checkOutboundUrl("https://list.example.com:443/unsub?id=1").allowListed).toBe(false);
  });
});

describe("resolution and connection", () => {
  const resolveTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it.each([
    ["https://127.0.0.1/u"],
    ["https://[::1]/u"],
    ["https://169.254.169.254/latest/meta-data"],
    ["https://[::ffff:127.0.0.1]/u"],
    ["https://[::127.0.0.1]/u"],
    ["https://[64:ff9b::7f00:1]/u"],
    ["https://[2002:7f00:1::1]/u"],
    ["https://10.0.0.8/u"],
  ])("refuses the IP literal %s", async (url) => {
    expect(await blockedReason(safeRequest(url, { method: "POST" }))).toBe("private_address");
  });

  it("refuses a name that resolves to a private address (and a mix of public and private)", async () => {
    expect(
      await blockedReason(
        safeRequest("https://evil.example/u", { method: "GET" }, { resolve: resolveTo("10.0.0.1") }),
      ),
    ).toBe("private_address");
    expect(
      await blockedReason(
        safeRequest(
          "https://evil.example/u",
          { method: "GET" },
          { resolve: resolveTo("93.184.216.34", "127.0.0.1") },
        ),
      ),
    ).toBe("private_address");
  });

  it("refuses localhost by resolution", async () => {
    expect(await blockedReason(safeRequest("https://localhost/u", { method: "GET" }))).toBe(
      "private_address",
    );
  });
});

describe("allow-listed test host", () => {
  let server: http.Server;
  let host = "";
  const seen: Array<{ method?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        seen.push({ method: req.method, headers: req.headers, body });
        if (req.url === "/redirect") {
          res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
        } else if (req.url === "/slow") {
          setTimeout(() => res.end("late"), 2_000);
        } else if (req.url === "/big") {
          res.end("x".repeat(200_000));
        } else {
          res.end("ok");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is refused unless explicitly allowed", async () => {
    expect(await blockedReason(safeRequest(`http://${host}/ok`, { method: "GET" }))).toBe(
      "scheme_not_allowed",
    );
  });

  it("posts without cookies or authorization", async () => {
    const res = await safeRequest(
      `http://${host}/ok`,
      { method: "POST", body: "a=b" },
      { allowHosts: [host] },
    );
    expect(res.status).toBe(200);
    const last = seen.at(-1);
    expect(last?.headers.cookie).toBeUndefined();
    expect(last?.headers.authorization).toBeUndefined();
  });

  it("does not follow redirects", async () => {
    const res = await safeRequest(`http://${host}/redirect`, { method: "GET" }, { allowHosts: [host] });
    expect(res.status).toBe(302);
  });

  it("caps time and size", async () => {
    await expect(
      safeRequest(`http://${host}/slow`, { method: "GET" }, { allowHosts: [host], timeoutMs: 300 }),
    ).rejects.toThrow();
    const big = await safeRequest(
      `http://${host}/big`,
      { method: "GET" },
      { allowHosts: [host], maxResponseBytes: 1024 },
    );
    expect(big.truncated).toBe(true);
    expect(big.body.length).toBeLessThanOrEqual(1024);
  });
});
