import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { draftListSchema, draftSchema, savedDraftSchema } from "../../../contract/drafts.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { arrived, bytesOf, mailboxSubjects, uploaded } from "../../test/compose-api.ts";
import { emulatorSuite, PROVIDER_CASES } from "../../test/emulator-suite.ts";
import { callApi } from "../../test/slow-provider.ts";
import type { SyncFixture } from "../../test/sync-fixture.ts";

/**
 * Issue 36, drafts carry attachments, on both providers against the emulator: a save with
 * uploads puts the files on the provider's draft (Gmail: the draft's raw MIME through the upload
 * endpoint; Graph: draft attachments, an upload session for the file over 3 MB), reopening lists
 * them, a save without one removes it at the provider, and sending the draft delivers the kept
 * file byte for byte.
 */
describe("draft attachments (pglite)", () => {
  const fixture = emulatorSuite();
  let f: SyncFixture;
  beforeAll(() => {
    f = fixture();
  });

  for (const { provider, owner } of PROVIDER_CASES) {
    it(`${provider}: files saved on the draft, reopened, one removed at the provider, the other sent`, async () => {
      const { token, accountId } = await f.signIn(provider, owner);
      await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 0 });
      const small = randomBytes(2_000);
      // Over 3 MB on Outlook, so it goes through an upload session.
      const big = randomBytes(provider === "outlook" ? 3_500_000 : 200_000);
      const notes = await uploaded(f, token, "notes.txt", small, "text/plain");
      const scan = await uploaded(f, token, "scan.bin", big);
      const subject = `Files in a ${provider} draft`;

      const first = await callApi(f, "PUT", "/api/drafts", token, {
        accountId,
        to: PEOPLE.priya,
        subject,
        body: "two files",
        attachments: [
          { kind: "upload", uploadId: notes.id },
          { kind: "upload", uploadId: scan.id },
        ],
      });
      expect(first.status).toBe(200);
      const saved = savedDraftSchema.parse(first.json);
      expect(saved.attachments?.map((a) => [a.fileName, a.size])).toEqual([
        ["notes.txt", small.length],
        ["scan.bin", big.length],
      ]);
      // On the draft now: the uploads are spent.
      expect((await callApi(f, "GET", `/api/uploads/${notes.id}`, token)).status).toBe(404);

      const list = draftListSchema.parse((await callApi(f, "GET", "/api/drafts", token)).json);
      expect(list.drafts.find((d) => d.id === saved.draftId)?.fileCount).toBe(2);
      const path = `/api/drafts/${encodeURIComponent(saved.draftId)}`;
      const reopened = draftSchema.parse((await callApi(f, "GET", path, token)).json);
      expect(reopened.attachments.map((a) => a.fileName)).toEqual(["notes.txt", "scan.bin"]);

      // The person removed notes.txt; autosave names only the file kept.
      const kept = saved.attachments?.[1]?.attachmentId ?? "";
      const second = await callApi(f, "PUT", "/api/drafts", token, {
        accountId,
        draftId: saved.draftId,
        to: PEOPLE.priya,
        subject,
        body: "one file",
        attachments: [{ kind: "draft", attachmentId: kept }],
      });
      expect(second.status).toBe(200);
      const resaved = savedDraftSchema.parse(second.json);
      expect(resaved.draftId).toBe(saved.draftId);
      expect(resaved.attachments?.map((a) => a.fileName)).toEqual(["scan.bin"]);
      const afterRemoval = draftSchema.parse((await callApi(f, "GET", path, token)).json);
      expect(afterRemoval.attachments.map((a) => [a.fileName, a.size])).toEqual([["scan.bin", big.length]]);

      // A file id the draft does not hold is refused, not silently dropped.
      const stale = await callApi(f, "PUT", "/api/drafts", token, {
        accountId,
        draftId: saved.draftId,
        subject,
        attachments: [{ kind: "draft", attachmentId: "not-on-the-draft" }],
      });
      expect(stale.status).toBe(409);

      const sent = await callApi(f, "POST", "/api/emails/send", token, {
        accountId,
        to: PEOPLE.priya,
        subject,
        body: "one file",
        draftId: saved.draftId,
        attachments: [{ kind: "draft", attachmentId: resaved.attachments?.[0]?.attachmentId ?? "" }],
      });
      expect(sent.status).toBe(200);
      const mail = await arrived(f, PEOPLE.priya, "gmail", subject);
      expect(mail.attachments.map((a) => a.filename)).toEqual(["scan.bin"]);
      expect(bytesOf(mail.attachments[0] ?? { content: new Uint8Array() }).equals(big)).toBe(true);
      expect(await mailboxSubjects(f, owner, provider, "DRAFT")).not.toContain(subject);

      // A draft's file needs its draft.
      const orphan = await callApi(f, "POST", "/api/emails/send", token, {
        accountId,
        to: PEOPLE.priya,
        subject: "no draft",
        body: "x",
        attachments: [{ kind: "draft", attachmentId: kept }],
      });
      expect(orphan.status).toBe(400);
    }, 60_000);
  }
});
