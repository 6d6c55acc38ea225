import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import { buildEmulator } from "../server.ts";
import { createUserAgentKeys, decryptPushBody, PushDecryptError } from "./decrypt.ts";

const vapid = webpush.generateVAPIDKeys();
const BASE = "http://push.test";

describe("aes128gcm decryption (RFC 8291)", () => {
  const keys = createUserAgentKeys(randomBytes(16));
  const subscription = {
    endpoint: `${BASE}/x`,
    keys: { p256dh: keys.publicKey.toString("base64url"), auth: keys.authSecret.toString("base64url") },
  };

  it("reads what web-push encrypted for the subscription's keys", () => {
    const text = JSON.stringify({ type: "mail", emailId: "e1", from: "Priya", subject: "Lunch ☕" });
    const { cipherText } = webpush.encrypt(
      subscription.keys.p256dh,
      subscription.keys.auth,
      text,
      "aes128gcm",
    );
    expect(decryptPushBody(cipherText, keys).toString("utf8")).toBe(text);
  });

  it("refuses a body encrypted for another browser, or damaged", () => {
    const other = createUserAgentKeys(randomBytes(16));
    const { cipherText } = webpush.encrypt(
      other.publicKey.toString("base64url"),
      other.authSecret.toString("base64url"),
      "secret",
      "aes128gcm",
    );
    expect(() => decryptPushBody(cipherText, keys)).toThrow(PushDecryptError);
    const mine = webpush.encrypt(
      subscription.keys.p256dh,
      subscription.keys.auth,
      "hello",
      "aes128gcm",
    ).cipherText;
    const damaged = Buffer.from(mine);
    damaged[damaged.length - 1] = (damaged[damaged.length - 1] ?? 0) ^ 1;
    expect(() => decryptPushBody(damaged, keys)).toThrow(PushDecryptError);
    expect(() => decryptPushBody(Buffer.alloc(10), keys)).toThrow(PushDecryptError);
  });
});

describe("the emulator's push service", () => {
  const app = buildEmulator({ clients: [], admin: true, publicUrl: BASE });
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  async function subscribe(applicationServerKey?: string) {
    const r = await app.inject({
      method: "POST",
      url: "/_admin/push/subscriptions",
      payload: applicationServerKey ? { applicationServerKey } : {},
    });
    expect(r.statusCode).toBe(201);
    return r.json<{ id: string; endpoint: string; keys: { p256dh: string; auth: string } }>();
  }

  function push(
    sub: { endpoint: string; keys: { p256dh: string; auth: string } },
    text: string,
    keys = vapid,
  ) {
    const details = webpush.generateRequestDetails(sub, text, {
      vapidDetails: { subject: "mailto:ops@example.com", ...keys },
      TTL: 60,
    });
    return app.inject({
      method: "POST",
      url: details.endpoint.slice(BASE.length),
      headers: Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])),
      payload: details.body,
    });
  }

  it("accepts a VAPID-signed push, decrypts and records it", async () => {
    const sub = await subscribe(vapid.publicKey);
    expect(sub.endpoint).toMatch(/^http:\/\/push\.test\/fcm\.googleapis\.com\/fcm\/send\//);
    const r = await push(sub, '{"hello":"world"}');
    expect(r.statusCode).toBe(201);
    expect(r.headers.location).toBeTruthy();
    const got = await app.inject({ method: "GET", url: `/_admin/push/received?subscription=${sub.id}` });
    const pushes = got.json<{ pushes: Array<{ payload: string; ttl: number; error: string | null }> }>()
      .pushes;
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ payload: '{"hello":"world"}', ttl: 60, error: null });
  });

  it("answers 403 to another application server's key and 401 without VAPID", async () => {
    const sub = await subscribe(vapid.publicKey);
    expect((await push(sub, "x", webpush.generateVAPIDKeys())).statusCode).toBe(403);
    const r = await app.inject({
      method: "POST",
      url: sub.endpoint.slice(BASE.length),
      headers: { ttl: "60" },
    });
    expect(r.statusCode).toBe(401);
  });

  it("answers 410 once the subscription is revoked, 404 for one it never issued", async () => {
    const sub = await subscribe();
    const revoke = await app.inject({ method: "POST", url: `/_admin/push/subscriptions/${sub.id}/revoke` });
    expect(revoke.statusCode).toBe(200);
    expect((await push(sub, "x")).statusCode).toBe(410);
    expect(
      (await push({ ...sub, endpoint: `${BASE}/fcm.googleapis.com/fcm/send/nope` }, "x")).statusCode,
    ).toBe(404);
  });
});
