import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIL_FRAME_HEIGHT_KEY, MAIL_FRAME_SCRIPT, MAIL_FRAME_SCRIPT_HASH } from "../contract/mail-frame.ts";
import { buildApp } from "./app.ts";
import { BACKENDS, openTestDatabase, type TestDatabase } from "./test/databases.ts";
import { startTestServer, type TestServer } from "./test/server.ts";

describe.each(BACKENDS)("HTTP basics on %s", (kind) => {
  let db: TestDatabase;
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    dist = await mkdtemp(path.join(os.tmpdir(), "mailwise-dist-"));
    await mkdir(path.join(dist, "assets"));
    await writeFile(
      path.join(dist, "index.html"),
      "<!doctype html><title>Mailwise</title><div id=root></div>",
    );
    await writeFile(
      path.join(dist, "assets", "index-abc123.js"),
      `console.log(${JSON.stringify("x".repeat(4000))})`,
    );
    server = await startTestServer(db.database, { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers liveness and readiness", async () => {
    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: kind });
  });

  it("unknown API paths answer the JSON error shape", async () => {
    for (const [method, p] of [
      ["GET", "/api/nope"],
      ["POST", "/api/emails/nothing-here"],
      ["GET", "/api"],
    ] as const) {
      const res = await fetch(`${server.url}${p}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("not_found");
      expect(body.error.message).toContain(p);
    }
  });

  it("every other page path returns the app so the client router decides", async () => {
    for (const p of ["/", "/pricing", "/no/such/page", "/auth/callback?code=x"]) {
      const res = await fetch(`${server.url}${p}`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toContain("<div id=root>");
    }
  });

  it("hashed assets are cached for a year and compressed", async () => {
    const res = await fetch(`${server.url}/assets/index-abc123.js`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("sends security headers with a CSP that allows no inline script but the email frame's, by hash", async () => {
    const res = await fetch(`${server.url}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    // The hash names exactly the frame's fixed height reporter and nothing else.
    const digest = createHash("sha256").update(MAIL_FRAME_SCRIPT).digest("base64");
    expect(MAIL_FRAME_SCRIPT_HASH).toBe(`'sha256-${digest}'`);
    expect(scriptSrc.trim()).toBe(`script-src 'self' ${MAIL_FRAME_SCRIPT_HASH}`);
    expect(MAIL_FRAME_SCRIPT).toContain(`parent.postMessage({${MAIL_FRAME_HEIGHT_KEY}:n},"*")`);
    expect(MAIL_FRAME_SCRIPT).not.toMatch(/fetch|XMLHttpRequest|location|cookie|Storage|top\.|eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // The installable app's manifest and service worker (issue 38) come from us only.
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // JSON answers and errors carry them too.
    for (const path of ["/healthz", "/api/emails"]) {
      const api = await fetch(`${server.url}${path}`);
      expect(api.headers.get("content-security-policy"), path).toBe(csp);
      expect(api.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("a malformed JSON body is a 400 in the error shape, not a crash", async () => {
    const app = await buildApp({ config: server.config, database: db.database });
    app.post("/api/_echo", async (req) => req.body);
    app.get("/api/_boom", async () => {
      throw new Error("secret internal detail");
    });
    const bad = await app.inject({
      method: "POST",
      url: "/api/_echo",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: "bad_request" } });
    const wrongType = await app.inject({
      method: "POST",
      url: "/api/_echo",
      headers: { "content-type": "application/x-unknown" },
      payload: "x",
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    const boom = await app.inject({ method: "GET", url: "/api/_boom" });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toMatchObject({ error: { code: "internal" } });
    expect(boom.body).not.toContain("secret internal detail");
    await app.close();
  });
});
