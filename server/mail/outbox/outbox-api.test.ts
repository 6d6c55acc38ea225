import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  heldMailSchema,
  outboxListSchema,
  sendEmailAnswerSchema,
  undoAnswerSchema,
} from "../../../contract/outbox.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { mailPair, RECIPIENTS, SENDERS } from "../../test/mail-pair.ts";
import type { Provider } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";

/**
 * Undo send (issue 36): held mail on the server, sent by the worker's due-action sweep when the
 * person's delay ends by the server's clock. Real server (role all), real emulator; what arrives
 * is read from the recipient's emulator mailbox.
 */
describe("held mail, undo send (pglite)", () => {
  let f: SyncFixture;
  const { api, tokenOf, signIn, arrived } = mailPair(() => f);

  beforeAll(async () => {
    f = await startSyncFixture("pglite");
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });
  afterEach(async () => {
    await f.admin("POST", "mail/faults/reset");
  });

  async function send(provider: Provider, subject: string) {
    const token = await tokenOf(provider);
    const r = await api("POST", "/api/emails/send", token, {
      to: RECIPIENTS[provider],
      subject,
      body: `Body of ${subject}`,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return sendEmailAnswerSchema.parse(r.json);
  }

  async function outboxItem(token: string, id: string) {
    const r = await api("GET", `/api/outbox/${id}`, token);
    return r.status === 200 ? heldMailSchema.parse(r.json) : undefined;
  }

  /** Lets the sweep run a few times (it polls each second) without moving the clock. */
  const settle = (ms = 2_500) => new Promise((resolve) => setTimeout(resolve, ms));

  for (const provider of ["gmail", "outlook"] as const) {
    it(`${provider}: held for the delay, then exactly one arrives; Undo is then 409`, async () => {
      const token = await tokenOf(provider);
      const subject = `Held ${provider} ${Date.now()}`;
      const before = f.services.clock.nowMs();
      const answer = await send(provider, subject);
      // The default delay is 10 s.
      expect(Date.parse(answer.sendAt) - before).toBeGreaterThanOrEqual(10_000);
      expect(Date.parse(answer.sendAt) - before).toBeLessThan(12_000);
      const listed = outboxListSchema.parse((await api("GET", "/api/outbox", token)).json);
      expect(listed.items.find((i) => i.id === answer.outboxId)?.request.subject).toBe(subject);
      await settle();
      expect(await arrived(provider, subject)).toBe(0);

      f.services.clock.advance(11);
      await waitUntil(async () => (await arrived(provider, subject)) > 0, 15_000, "delivery");
      await settle();
      expect(await arrived(provider, subject)).toBe(1);
      expect(await outboxItem(token, answer.outboxId)).toBeUndefined();

      const late = await api("DELETE", `/api/outbox/${answer.outboxId}`, token);
      expect(late.status).toBe(409);
      expect((late.json as { error: { message: string } }).error.message).toBe(
        "Too late to undo: this mail was already sent.",
      );
    });

    it(`${provider}: Undo answers the whole request and nothing ever arrives`, async () => {
      const token = await tokenOf(provider);
      const subject = `Undone ${provider} ${Date.now()}`;
      const request = {
        to: RECIPIENTS[provider],
        cc: PEOPLE.sam,
        subject,
        body: "Text to keep",
        html: "<p>Text to <b>keep</b></p>",
      };
      const r = await api("POST", "/api/emails/send", token, request);
      expect(r.status).toBe(200);
      const { outboxId } = sendEmailAnswerSchema.parse(r.json);
      const undo = await api("DELETE", `/api/outbox/${outboxId}`, token);
      expect(undo.status).toBe(200);
      const back = undoAnswerSchema.parse(undo.json).request;
      expect(back).toMatchObject(request);
      f.services.clock.advance(60);
      await settle();
      expect(await arrived(provider, subject)).toBe(0);
      // Gone: a second Undo finds nothing.
      expect((await api("DELETE", `/api/outbox/${outboxId}`, token)).status).toBe(404);
    });
  }

  it("bad input is refused at once and nothing is held", async () => {
    const token = await tokenOf("gmail");
    const r = await api("POST", "/api/emails/send", token, { to: "", subject: "x", body: "y" });
    expect(r.status).toBe(400);
    const listed = outboxListSchema.parse((await api("GET", "/api/outbox", token)).json);
    expect(listed.items.filter((i) => i.request.subject === "x")).toHaveLength(0);
  });

  it("the delay setting: 0 sends at once through the same path; other values are refused", async () => {
    const token = await tokenOf("gmail");
    expect((await api("PATCH", "/api/settings/mail", token, { sendDelaySeconds: 7 })).status).toBe(400);
    const set = await api("PATCH", "/api/settings/mail", token, { sendDelaySeconds: 0 });
    expect(set.json).toMatchObject({ sendDelaySeconds: 0 });
    try {
      const subject = `No delay ${Date.now()}`;
      await send("gmail", subject);
      await waitUntil(async () => (await arrived("gmail", subject)) > 0, 10_000, "delivery");
      await settle();
      expect(await arrived("gmail", subject)).toBe(1);
    } finally {
      await api("PATCH", "/api/settings/mail", token, { sendDelaySeconds: 10 });
    }
    expect((await api("GET", "/api/settings/mail", token)).json).toMatchObject({ sendDelaySeconds: 10 });
  });

  it("another person's held mail is a 404 to list, read and undo", async () => {
    const mine = await tokenOf("gmail");
    const subject = `Private ${Date.now()}`;
    const { outboxId } = await send("gmail", subject);
    const { token: other } = await f.signIn("outlook", PEOPLE.casey);
    expect((await api("GET", `/api/outbox/${outboxId}`, other)).status).toBe(404);
    expect((await api("DELETE", `/api/outbox/${outboxId}`, other)).status).toBe(404);
    const theirs = outboxListSchema.parse((await api("GET", "/api/outbox", other)).json);
    expect(theirs.items.map((i) => i.id)).not.toContain(outboxId);
    // Still mine, intact.
    expect((await api("DELETE", `/api/outbox/${outboxId}`, mine)).status).toBe(200);
  });

  it("a provider that times out while sending: retried, found sent by its Message-ID, one delivery", async () => {
    const token = await tokenOf("gmail");
    const subject = `Timeout ${Date.now()}`;
    const { outboxId } = await send("gmail", subject);
    // Longer than the client's 5 s timeout: the emulator still takes the mail after the wait.
    await f.admin("PUT", "mail/faults", { latencyMs: 6_500, provider: "google" });
    f.services.clock.advance(11);
    const failed = await waitUntil(
      async () => {
        const item = await outboxItem(token, outboxId);
        return item?.status === "pending" && item.attempts === 1 && item.error ? item : undefined;
      },
      20_000,
      "the first attempt to fail",
    );
    expect(failed.error).toMatch(/fail/i);
    await waitUntil(async () => (await arrived("gmail", subject)) > 0, 10_000, "the late delivery");
    await f.admin("POST", "mail/faults/reset");
    // The retry's time (backoff) passes: it asks Gmail for the Message-ID first and sends nothing.
    f.services.clock.advance(600);
    await waitUntil(async () => (await outboxItem(token, outboxId)) === undefined, 15_000, "done");
    await settle();
    expect(await arrived("gmail", subject)).toBe(1);
  }, 60_000);

  it("a revoked token: kept waiting for the reconnect with its content and the reason, never dropped; Undo gives it back", async () => {
    const token = await signIn("outlook");
    const subject = `Revoked ${Date.now()}`;
    const { outboxId } = await send("outlook", subject);
    const revoked = await f.admin("POST", "tokens/revoke", { email: SENDERS.outlook, provider: "microsoft" });
    expect(revoked.status).toBe(200);
    f.services.clock.advance(11);
    // Not given up (decision 0073): it waits, pending, with why it is late.
    const waiting = await waitUntil(
      async () => {
        const item = await outboxItem(token, outboxId);
        return item?.status === "pending" && item.error ? item : undefined;
      },
      15_000,
      "the held mail to wait for a reconnect",
    );
    expect(waiting.error).toMatch(/reconnect|sign in/i);
    expect(waiting.request.subject).toBe(subject);
    f.services.clock.advance(3600);
    await settle();
    expect(await arrived("outlook", subject)).toBe(0);
    const back = await api("DELETE", `/api/outbox/${outboxId}`, token);
    expect(back.status).toBe(200);
    expect(undoAnswerSchema.parse(back.json).request.subject).toBe(subject);
  }, 60_000);
});
