import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxListSchema, sendEmailAnswerSchema, sendNowAnswerSchema } from "../../../contract/outbox.ts";
import { mailPair, RECIPIENTS } from "../../test/mail-pair.ts";
import { type SyncFixture, startSyncFixture } from "../../test/sync-fixture.ts";

const SENDS = 12;
const HOUR_MS = 60 * 60_000;

/**
 * With no Undo delay the send answers after the provider did (compose then says "Sent"). The
 * held mail must not be open to the sweep before this request runs it: a sweep that took it in
 * between (a CI run caught one) left the request answering while the mail was still being sent,
 * and the draft it was written in still in Drafts. Here the worker's sweep polls every few ms,
 * so a held mail stored as pending is taken by it almost every time. Send now on a scheduled mail
 * is the same case: moved to now, then claimed, it went to the sweep and the person read "Not sent".
 */
describe("a send with no delay, beside a busy sweep (pglite)", () => {
  let f: SyncFixture;
  const { api, tokenOf, arrived } = mailPair(() => f);

  beforeAll(async () => {
    f = await startSyncFixture("pglite", {}, { dueActionPollMs: 2 });
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  it(`each of ${SENDS} sends has reached the recipient when its answer comes`, async () => {
    const token = await tokenOf("gmail");
    expect((await api("PATCH", "/api/settings/mail", token, { sendDelaySeconds: 0 })).status).toBe(200);
    const late: string[] = [];
    for (let i = 0; i < SENDS; i++) {
      const subject = `At once ${i} ${Date.now()}`;
      const r = await api("POST", "/api/emails/send", token, {
        to: RECIPIENTS.gmail,
        subject,
        body: `Body of ${subject}`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(sendEmailAnswerSchema.parse(r.json).delaySeconds).toBe(0);
      if ((await arrived("gmail", subject)) !== 1) late.push(subject);
    }
    expect(late).toEqual([]);
    // Nothing is left waiting or sending.
    expect(outboxListSchema.parse((await api("GET", "/api/outbox", token)).json).items).toEqual([]);
  });

  it(`Send now on ${SENDS} scheduled mails: each answers sent, and has reached the recipient`, async () => {
    const token = await tokenOf("gmail");
    const late: string[] = [];
    for (let i = 0; i < SENDS; i++) {
      const subject = `Sent now ${i} ${Date.now()}`;
      const held = await api("POST", "/api/emails/send", token, {
        to: RECIPIENTS.gmail,
        subject,
        body: `Body of ${subject}`,
        sendAt: new Date(f.services.clock.nowMs() + HOUR_MS).toISOString(),
      });
      expect(held.status, JSON.stringify(held.json)).toBe(200);
      const { outboxId } = sendEmailAnswerSchema.parse(held.json);
      const r = await api("POST", `/api/outbox/${outboxId}/send`, token);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const answer = sendNowAnswerSchema.parse(r.json);
      if (!answer.sent || (await arrived("gmail", subject)) !== 1) late.push(subject);
    }
    expect(late).toEqual([]);
    expect(outboxListSchema.parse((await api("GET", "/api/outbox", token)).json).items).toEqual([]);
  });
});
