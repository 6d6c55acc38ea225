import { beforeAll, describe, expect, it } from "vitest";
import { draftListSchema, draftSchema, savedDraftSchema } from "../../../contract/drafts.ts";
import { PEOPLE } from "../../test/auth-fixture.ts";
import { mailboxSubjects } from "../../test/compose-api.ts";
import { emulatorSuite, PROVIDER_CASES } from "../../test/emulator-suite.ts";
import { callApi, emulatorProvider, type Provider } from "../../test/slow-provider.ts";
import type { SyncFixture } from "../../test/sync-fixture.ts";

/**
 * Issue 36, drafts at the provider through the API on both providers against the emulator:
 * autosave creates then updates one draft, the list includes a draft written in Gmail/Outlook
 * itself, reopening reads it back, sending with its id delivers once and removes it, another
 * person's ids are 404, and a slow provider or a revoked grant answer clear JSON errors.
 */
const WRITE_TIMEOUT_MS = 1_000;

describe("drafts (pglite)", () => {
  const fixture = emulatorSuite({ PROVIDER_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS) });
  let f: SyncFixture;
  beforeAll(() => {
    f = fixture();
  });
  const cases = PROVIDER_CASES;

  const subjects = (email: string, provider: Provider, label: string) =>
    mailboxSubjects(f, email, provider, label);

  for (const { provider, owner, other, otherProvider } of cases) {
    describe(provider, () => {
      let token: string;
      let accountId: string;
      beforeAll(async () => {
        ({ token, accountId } = await f.signIn(provider, owner));
        // Sends go out at once: these tests are about what arrives, not Undo send (outbox-api.test.ts).
        await callApi(f, "PATCH", "/api/settings/mail", token, { sendDelaySeconds: 0 });
      }, 60_000);

      it("saves, updates in place, lists with the provider's own draft, reopens, and sending removes it", async () => {
        const subject = `Plan for ${provider}`;
        const first = await callApi(f, "PUT", "/api/drafts", token, {
          accountId,
          to: PEOPLE.priya,
          subject: `${subject} (1)`,
          body: "first words",
        });
        expect(first.status).toBe(200);
        const saved = savedDraftSchema.parse(first.json);
        expect(saved.draftId.startsWith(`${accountId}:`)).toBe(true);
        expect(await subjects(owner, provider, "DRAFT")).toContain(`${subject} (1)`);

        const second = await callApi(f, "PUT", "/api/drafts", token, {
          accountId,
          draftId: saved.draftId,
          to: `${PEOPLE.priya}, bo@`,
          bcc: "Hidden Person <hidden@example.org>",
          subject,
          body: "second words",
        });
        expect(second.status).toBe(200);
        const updated = savedDraftSchema.parse(second.json);
        expect(updated.draftId).toBe(saved.draftId);
        expect(updated.skippedRecipients).toEqual(["bo@"]);
        const drafts = await subjects(owner, provider, "DRAFT");
        expect(drafts.filter((s) => s.startsWith(subject))).toEqual([subject]);

        // A draft written in Gmail/Outlook itself, straight into the provider's Drafts.
        const foreignSubject = `Written in ${provider} itself`;
        const added = await f.admin(
          "POST",
          `mailboxes/${encodeURIComponent(owner)}/messages?provider=${emulatorProvider(provider)}`,
          {
            raw: `From: ${owner}\r\nTo: ${PEOPLE.priya}\r\nSubject: ${foreignSubject}\r\n\r\nnotes before the review\r\n`,
            labelIds: ["DRAFT"],
            internalDate: Date.now() - 60 * 60_000,
          },
        );
        expect(added.status).toBe(201);
        const list = draftListSchema.parse((await callApi(f, "GET", "/api/drafts", token)).json);
        expect(list.failedAccounts).toEqual([]);
        expect(list.drafts[0]).toMatchObject({ id: saved.draftId, subject, accountId, accountEmail: owner });
        expect(list.drafts[0]?.to).toEqual([expect.objectContaining({ address: PEOPLE.priya })]);
        const foreign = list.drafts.find((d) => d.subject === foreignSubject);
        expect(foreign).toBeDefined();
        const reopenedForeign = draftSchema.parse(
          (await callApi(f, "GET", `/api/drafts/${encodeURIComponent(foreign?.id ?? "")}`, token)).json,
        );
        expect(reopenedForeign.body).toContain("notes before the review");

        const reopened = await callApi(f, "GET", `/api/drafts/${encodeURIComponent(saved.draftId)}`, token);
        expect(reopened.status).toBe(200);
        expect(draftSchema.parse(reopened.json)).toMatchObject({
          id: saved.draftId,
          accountId,
          to: PEOPLE.priya,
          bcc: `Hidden Person <hidden@example.org>`,
          subject,
        });
        expect(draftSchema.parse(reopened.json).body).toContain("second words");

        const before = (await subjects(PEOPLE.priya, "gmail", "INBOX")).filter((s) => s === subject).length;
        const sent = await callApi(f, "POST", "/api/emails/send", token, {
          accountId,
          to: PEOPLE.priya,
          subject,
          body: "second words, sent",
          draftId: saved.draftId,
        });
        expect(sent.status).toBe(200);
        expect((await subjects(owner, provider, "DRAFT")).some((s) => s.startsWith(subject))).toBe(false);
        expect((await subjects(PEOPLE.priya, "gmail", "INBOX")).filter((s) => s === subject).length).toBe(
          before + 1,
        );
        const gone = await callApi(f, "GET", `/api/drafts/${encodeURIComponent(saved.draftId)}`, token);
        expect(gone.status).toBe(404);
      });

      it("gives another person's draft ids a 404 and leaves the draft alone", async () => {
        const mine = savedDraftSchema.parse(
          (await callApi(f, "PUT", "/api/drafts", token, { subject: `Private ${provider}`, body: "x" })).json,
        );
        const { token: otherToken, accountId: otherAccount } = await f.signIn(otherProvider, other);
        const path = `/api/drafts/${encodeURIComponent(mine.draftId)}`;
        expect((await callApi(f, "GET", path, otherToken)).status).toBe(404);
        expect((await callApi(f, "DELETE", path, otherToken)).status).toBe(404);
        const overwrite = await callApi(f, "PUT", "/api/drafts", otherToken, {
          draftId: mine.draftId,
          subject: "stolen",
        });
        expect(overwrite.status).toBe(404);
        // The provider part under the other person's own account is just a draft they do not have.
        const providerPart = mine.draftId.slice(37);
        const crossed = `/api/drafts/${encodeURIComponent(`${otherAccount}:${providerPart}`)}`;
        expect((await callApi(f, "GET", crossed, otherToken)).status).toBe(404);
        expect((await callApi(f, "GET", "/api/drafts/not-an-id", token)).status).toBe(404);
        expect(await subjects(owner, provider, "DRAFT")).toContain(`Private ${provider}`);
        expect((await callApi(f, "DELETE", path, token)).status).toBe(200);
        expect(await subjects(owner, provider, "DRAFT")).not.toContain(`Private ${provider}`);
      });

      it("answers an empty draft, a slow provider and a revoked grant with clear JSON errors", async () => {
        const empty = await callApi(f, "PUT", "/api/drafts", token, { to: " , ", subject: " " });
        expect(empty.status).toBe(400);
        expect(empty.json).toMatchObject({ error: { code: "validation_failed" } });

        await f.admin("PUT", "mail/faults", { latencyMs: 4_000, provider: emulatorProvider(provider) });
        const started = Date.now();
        const slow = await callApi(f, "PUT", "/api/drafts", token, { subject: "Slow save", body: "kept" });
        expect(slow.status).toBe(504);
        expect(slow.json).toMatchObject({ error: { code: "provider_timeout" } });
        expect(Date.now() - started).toBeLessThan(WRITE_TIMEOUT_MS + 2_500);
        const slowList = draftListSchema.parse((await callApi(f, "GET", "/api/drafts", token)).json);
        expect(slowList.failedAccounts.map((a) => a.accountId)).toEqual([accountId]);
        await f.admin("POST", "mail/faults/reset");

        const revoked = await f.admin("POST", "tokens/revoke", {
          email: owner,
          provider: emulatorProvider(provider),
        });
        expect(revoked.status).toBe(200);
        const refused = await callApi(f, "PUT", "/api/drafts", token, {
          subject: "After revoke",
          body: "kept",
        });
        expect(refused.status).toBe(409);
        expect(refused.json).toMatchObject({ error: { code: "provider_reauth_required" } });
      });
    });
  }
});
