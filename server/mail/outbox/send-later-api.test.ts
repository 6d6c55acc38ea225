import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadSchema } from "../../../contract/compose.ts";
import { heldMailSchema, sendEmailAnswerSchema, sendNowAnswerSchema } from "../../../contract/outbox.ts";
import {
  ALREADY_SENT_MESSAGE,
  REMIND_AT_PAST_MESSAGE,
  SEND_AT_PAST_MESSAGE,
  SEND_AT_TOO_FAR_MESSAGE,
} from "../../../contract/scheduled.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { mailPair, RECIPIENTS, SENDERS } from "../../test/mail-pair.ts";
import type { Provider } from "../../test/slow-provider.ts";
import { type SyncFixture, startSyncFixture, waitUntil } from "../../test/sync-fixture.ts";
import { createUploadStore } from "../uploads/upload-store.ts";

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Send later (issue 37): a held mail at a time the person chose, on the server's clock (moved
 * here), changed from the Scheduled list while it waits. Real server (role all), real emulator;
 * deliveries are counted in the recipient's emulator mailbox.
 */
describe("send later (pglite)", () => {
  let f: SyncFixture;
  let dataDir: string;
  const { api, tokenOf, signIn, arrived } = mailPair(() => f);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "mw-send-later-"));
    f = await startSyncFixture("pglite", { DATA_DIR: dataDir });
  }, 180_000);
  afterAll(async () => {
    await f?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const errorOf = (r: { json: unknown }) => (r.json as { error: { message: string } }).error.message;
  const inSeconds = (s: number) => new Date(f.services.clock.nowMs() + s * 1000).toISOString();
  const settle = (ms = 2_500) => new Promise((resolve) => setTimeout(resolve, ms));

  async function schedule(provider: Provider, subject: string, sendAt: string, extra: object = {}) {
    const r = await api("POST", "/api/emails/send", await tokenOf(provider), {
      to: RECIPIENTS[provider],
      subject,
      body: `Body of ${subject}`,
      sendAt,
      ...extra,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return sendEmailAnswerSchema.parse(r.json);
  }

  async function item(provider: Provider, id: string) {
    const r = await api("GET", `/api/outbox/${id}`, await tokenOf(provider));
    return r.status === 200 ? heldMailSchema.parse(r.json) : undefined;
  }

  for (const provider of ["gmail", "outlook"] as const) {
    it(`${provider}: waits for its time, is rescheduled, then arrives exactly once; changes are then 409`, async () => {
      const token = await tokenOf(provider);
      const subject = `Later ${provider} ${Date.now()}`;
      const sendAt = inSeconds(2 * HOUR);
      const answer = await schedule(provider, subject, sendAt);
      expect(answer.sendAt).toBe(sendAt);
      expect(answer.delaySeconds).toBe(0);
      const listed = await item(provider, answer.outboxId);
      expect(listed).toMatchObject({ scheduled: true, status: "pending", sendAt });
      expect(listed?.request.subject).toBe(subject);

      const later = inSeconds(3 * HOUR);
      const moved = await api("PATCH", `/api/outbox/${answer.outboxId}`, token, { sendAt: later });
      expect(moved.status, JSON.stringify(moved.json)).toBe(200);
      expect(heldMailSchema.parse(moved.json).sendAt).toBe(later);

      // The first time passes: nothing goes.
      f.services.clock.advance(2 * HOUR + 60);
      await settle();
      expect(await arrived(provider, subject)).toBe(0);

      f.services.clock.advance(HOUR);
      await waitUntil(async () => (await arrived(provider, subject)) > 0, 15_000, "delivery");
      await settle();
      expect(await arrived(provider, subject)).toBe(1);

      const patch = await api("PATCH", `/api/outbox/${answer.outboxId}`, token, { sendAt: inSeconds(HOUR) });
      expect(patch.status).toBe(409);
      expect(errorOf(patch)).toBe(ALREADY_SENT_MESSAGE);
      expect((await api("POST", `/api/outbox/${answer.outboxId}/cancel`, token)).status).toBe(409);
      expect((await api("POST", `/api/outbox/${answer.outboxId}/send`, token)).status).toBe(409);
      const edit = await api("PUT", `/api/outbox/${answer.outboxId}`, token, {
        to: RECIPIENTS[provider],
        subject: "Too late",
        body: "x",
      });
      expect(edit.status).toBe(409);
    }, 60_000);

    it(`${provider}: Send now sends at once, once`, async () => {
      const token = await tokenOf(provider);
      const subject = `Now ${provider} ${Date.now()}`;
      const { outboxId } = await schedule(provider, subject, inSeconds(DAY));
      const r = await api("POST", `/api/outbox/${outboxId}/send`, token);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(sendNowAnswerSchema.parse(r.json)).toEqual({ sent: true, item: null });
      expect(await arrived(provider, subject)).toBe(1);
      f.services.clock.advance(DAY + 60);
      await settle();
      expect(await arrived(provider, subject)).toBe(1);
    }, 30_000);
  }

  it("edit replaces the mail and keeps its time; cancel sends nothing ever", async () => {
    const token = await tokenOf("gmail");
    const first = `Draft one ${Date.now()}`;
    const second = `Draft two ${Date.now()}`;
    const sendAt = inSeconds(5 * HOUR);
    const { outboxId } = await schedule("gmail", first, sendAt);
    const edit = await api("PUT", `/api/outbox/${outboxId}`, token, {
      to: RECIPIENTS.gmail,
      subject: second,
      body: "Better words",
    });
    expect(edit.status, JSON.stringify(edit.json)).toBe(200);
    expect(heldMailSchema.parse(edit.json)).toMatchObject({ sendAt, scheduled: true });

    const cancelled = `Cancelled ${Date.now()}`;
    const other = await schedule("gmail", cancelled, inSeconds(HOUR));
    expect((await api("POST", `/api/outbox/${other.outboxId}/cancel`, token)).status).toBe(204);
    expect(await item("gmail", other.outboxId)).toBeUndefined();

    f.services.clock.advance(5 * HOUR + 60);
    await waitUntil(async () => (await arrived("gmail", second)) > 0, 15_000, "the edited mail");
    await settle();
    expect(await arrived("gmail", second)).toBe(1);
    expect(await arrived("gmail", first)).toBe(0);
    expect(await arrived("gmail", cancelled)).toBe(0);
  }, 40_000);

  it("a scheduled mail leaves the person's Drafts (its provider draft goes) and still arrives once", async () => {
    const token = await tokenOf("outlook");
    const subject = `From a draft ${Date.now()}`;
    const saved = await api("PUT", "/api/drafts", token, {
      to: RECIPIENTS.outlook,
      subject,
      body: "Draft text",
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const { draftId } = saved.json as { draftId: string };
    const drafts = async () =>
      ((await api("GET", "/api/drafts", token)).json as { drafts: Array<{ subject: string }> }).drafts.filter(
        (d) => d.subject === subject,
      ).length;
    expect(await drafts()).toBe(1);
    await schedule("outlook", subject, inSeconds(HOUR), { draftId });
    expect(await drafts()).toBe(0);
    f.services.clock.advance(HOUR + 60);
    await waitUntil(async () => (await arrived("outlook", subject)) > 0, 15_000, "delivery");
    await settle();
    expect(await arrived("outlook", subject)).toBe(1);
  }, 30_000);

  it("bad times are refused with a clear message and nothing is held", async () => {
    const token = await tokenOf("outlook");
    const subject = `Bad time ${Date.now()}`;
    const base = { to: RECIPIENTS.outlook, subject, body: "x" };
    const past = await api("POST", "/api/emails/send", token, { ...base, sendAt: inSeconds(-60) });
    expect(past.status).toBe(400);
    expect(errorOf(past)).toBe(SEND_AT_PAST_MESSAGE);
    const far = await api("POST", "/api/emails/send", token, { ...base, sendAt: inSeconds(367 * DAY) });
    expect(far.status).toBe(400);
    expect(errorOf(far)).toBe(SEND_AT_TOO_FAR_MESSAGE);
    const garbled = await api("POST", "/api/emails/send", token, { ...base, sendAt: "tomorrow-ish" });
    expect(garbled.status).toBe(400);
    const remindBefore = await api("POST", "/api/emails/send", token, {
      ...base,
      sendAt: inSeconds(2 * HOUR),
      followUp: { at: inSeconds(HOUR) },
    });
    expect(remindBefore.status).toBe(400);
    expect(errorOf(remindBefore)).toBe(REMIND_AT_PAST_MESSAGE);
    const list = (await api("GET", "/api/outbox", token)).json as {
      items: Array<{ request: { subject: string } }>;
    };
    expect(list.items.filter((i) => i.request.subject === subject)).toHaveLength(0);

    const { outboxId } = await schedule("outlook", subject, inSeconds(HOUR));
    const back = await api("PATCH", `/api/outbox/${outboxId}`, token, { sendAt: inSeconds(-1) });
    expect(back.status).toBe(400);
    expect(errorOf(back)).toBe(SEND_AT_PAST_MESSAGE);
    expect((await item("outlook", outboxId))?.sendAt).not.toBe(undefined);
    // Another person's scheduled mail is a 404 to every change.
    const { token: other } = await f.signIn("gmail", PEOPLE.sam);
    expect((await api("PATCH", `/api/outbox/${outboxId}`, other, { sendAt: inSeconds(HOUR) })).status).toBe(
      404,
    );
    expect((await api("POST", `/api/outbox/${outboxId}/send`, other)).status).toBe(404);
    expect((await api("POST", `/api/outbox/${outboxId}/cancel`, other)).status).toBe(404);
    expect((await api("POST", `/api/outbox/${outboxId}/cancel`, token)).status).toBe(204);
  }, 30_000);

  it("a scheduled mail's upload outlives the 24-hour expiry, goes with the mail, and a cancel deletes it", async () => {
    const token = await tokenOf("gmail");
    const upload = async (name: string) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(randomBytes(64))]), name);
      const r = await fetch(`${f.url}/api/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(r.status).toBe(201);
      return uploadSchema.parse(await r.json());
    };
    const kept = await upload("kept.bin");
    const dropped = await upload("dropped.bin");
    const subject = `With file ${Date.now()}`;
    const { outboxId } = await schedule("gmail", subject, inSeconds(2 * DAY), {
      attachments: [{ kind: "upload", uploadId: kept.id }],
    });
    const cancelledOne = await schedule("gmail", `Cancelled file ${Date.now()}`, inSeconds(2 * DAY), {
      attachments: [{ kind: "upload", uploadId: dropped.id }],
    });

    f.services.clock.advance(DAY + HOUR);
    const store = createUploadStore({
      db: f.database.database.db,
      clock: f.services.clock,
      dir: path.join(dataDir, "uploads"),
    });
    await store.sweep();
    expect((await api("GET", `/api/uploads/${kept.id}`, token)).status).toBe(200);
    expect((await api("GET", `/api/uploads/${dropped.id}`, token)).status).toBe(200);

    expect((await api("POST", `/api/outbox/${cancelledOne.outboxId}/cancel`, token)).status).toBe(204);
    expect((await api("GET", `/api/uploads/${dropped.id}`, token)).status).toBe(404);

    f.services.clock.advance(DAY);
    await waitUntil(async () => (await arrived("gmail", subject)) > 0, 15_000, "the mail with its file");
    await waitUntil(async () => (await item("gmail", outboxId)) === undefined, 10_000, "done");
    expect((await api("GET", `/api/uploads/${kept.id}`, token)).status).toBe(404);
  }, 40_000);

  it("a revoked token at its time: it waits for the reconnect with the reason, then goes once by itself", async () => {
    const _token = await signIn("outlook");
    const subject = `Revoked later ${Date.now()}`;
    const { outboxId } = await schedule("outlook", subject, inSeconds(HOUR));
    expect(
      (await f.admin("POST", "tokens/revoke", { email: SENDERS.outlook, provider: "microsoft" })).status,
    ).toBe(200);
    f.services.clock.advance(HOUR + 60);
    // Not given up (decision 0073): pending, with why it is late, its content kept.
    const waiting = await waitUntil(
      async () => {
        const held = await item("outlook", outboxId);
        return held?.status === "pending" && held.error ? held : undefined;
      },
      15_000,
      "the scheduled mail to wait for a reconnect",
    );
    expect(waiting.error).toMatch(/reconnect|sign in/i);
    expect(waiting.request.subject).toBe(subject);
    expect(await arrived("outlook", subject)).toBe(0);
    // Reconnected (a new sign-in): the waiting mail goes at once, once.
    await signIn("outlook");
    await waitUntil(
      async () => (await arrived("outlook", subject)) > 0,
      15_000,
      "the mail after the reconnect",
    );
    await waitUntil(async () => (await item("outlook", outboxId)) === undefined, 10_000, "done");
    expect(await arrived("outlook", subject)).toBe(1);
  }, 40_000);
});
