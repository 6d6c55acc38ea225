/**
 * Issue 19.3: the first-sync banner counts from the provider's real figures and goes away when the
 * sync ends. Gmail's messages.list estimate over-counts a mailbox whose old mail was archived.
 */
import { acceptCookies, addMessage, api, generate, mailbox } from "./dashboard-fixtures.ts";
import { createIdentity, expect, signInOverHttp, test } from "./support/auth.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

test("Syncing N of M: M is the inbox's real total, and the banner ends with the sync", async ({ page }) => {
  test.setTimeout(120_000);
  const me = await createIdentity("gmail", "Pat");
  // 1,500 inbox messages (about 20 s of Gmail quota to back-fill) and 300 old archived ones that
  // the first sync leaves alone, but that a list estimate extrapolated over the mailbox counts.
  await generate(me.email, 1_500);
  const old = Date.now() - 400 * 86_400_000;
  await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      addMessage(me.email, {
        from: { address: `old${i}@example.org` },
        subject: `Archived long ago ${i}`,
        labelIds: [],
        internalDate: old - i * 60_000,
      }),
    ),
  );
  const inbox = (await mailbox(me.email, 1)).labels.INBOX?.total ?? 0;
  expect(inbox).toBe(1_500);

  await signInOverHttp(page, me.email);
  const banner = page.getByTestId("sync-progress");
  await expect(banner).toContainText(/Syncing [\d,]+ of 1,500/, { timeout: 15_000 });
  // Gone when the pass is over, without a reload.
  await expect(banner).toHaveCount(0, { timeout: 90_000 });
  const { accounts } = await api<{ accounts: Array<{ status: string; totalEstimate: number | null }> }>(
    page,
    "/api/emails/sync-status",
  );
  const stats = await api<{ totalEmails: number }>(page, "/api/emails/stats");
  expect(accounts).toMatchObject([{ status: "idle", totalEstimate: 1_500 }]);
  expect(stats.totalEmails).toBe(1_500);
});
