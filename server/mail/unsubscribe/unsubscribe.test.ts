import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseListUnsubscribe } from "./list-unsubscribe.ts";
import { postOneClick } from "./one-click.ts";

describe("parseListUnsubscribe", () => {
  it("reads one-click https and mailto (address and subject only)", () => {
    const r = parseListUnsubscribe(
      "<mailto:leave@list.example?subject=unsubscribe%20me&body=ignored&cc=boss@corp.example>, <https://list.example/u/abc>",
      "List-Unsubscribe=One-Click",
    );
    expect(r).toEqual({
      mailto: { address: "leave@list.example", subject: "unsubscribe me" },
      oneClickUrl: "https://list.example/u/abc",
    });
  });

  it("without List-Unsubscribe-Post an https link is only a web link", () => {
    expect(parseListUnsubscribe("<https://list.example/u/abc>", null)).toEqual({
      webUrl: "https://list.example/u/abc",
    });
  });

  it("ignores http links, bare text, bad addresses and header injection", () => {
    expect(
      parseListUnsubscribe("http://x.example/u, <http://x.example/u>", "List-Unsubscribe=One-Click"),
    ).toEqual({});
    expect(parseListUnsubscribe("<mailto:a@b.example,c@d.example>")).toEqual({});
    expect(parseListUnsubscribe("<mailto:a@b.example?subject=hi%0d%0aBcc:%20x@y.example>").mailto).toEqual({
      address: "a@b.example",
      subject: "hi Bcc: x@y.example",
    });
    expect(parseListUnsubscribe(undefined)).toEqual({});
    expect(parseListUnsubscribe("<mailto:%E0%A4%A>")).toEqual({});
  });

  it("defaults the subject to unsubscribe", () => {
    expect(parseListUnsubscribe("<mailto:out@news.example>").mailto).toEqual({
      address: "out@news.example",
      subject: "unsubscribe",
    });
  });
});

describe("postOneClick", () => {
  let server: http.Server;
  let host = "";
  let lastBody = "";
  let lastType = "";

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        lastBody = body;
        lastType = req.headers["content-type"] ?? "";
        if (req.url === "/gone") res.writeHead(410).end();
        else if (req.url === "/moved") res.writeHead(301, { location: "/ok" }).end();
        else res.writeHead(200).end("unsubscribed");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("POSTs the RFC 8058 body form-encoded and succeeds on 2xx", async () => {
    expect(await postOneClick(`http://${host}/ok`, { allowHosts: [host] })).toEqual({
      ok: true,
      status: 200,
    });
    expect(lastBody).toBe("List-Unsubscribe=One-Click");
    expect(lastType).toBe("application/x-www-form-urlencoded");
  });

  it("reports refusals, redirects and blocked targets without throwing", async () => {
    expect(await postOneClick(`http://${host}/gone`, { allowHosts: [host] })).toMatchObject({
      ok: false,
      reason: "rejected",
    });
    expect(await postOneClick(`http://${host}/moved`, { allowHosts: [host] })).toMatchObject({
      ok: false,
      reason: "redirected",
    });
    expect(await postOneClick(`http://${host}/ok`)).toMatchObject({ ok: false, reason: "blocked" });
    expect(await postOneClick("https://169.254.169.254/latest")).toMatchObject({
      ok: false,
      reason: "blocked",
    });
  });
});
