import {
  acceptCookies,
  api,
  BUCKET_MAIL,
  copyCorpusMail,
  identityWithMail,
  mailbox,
  waitForSyncedEmails,
  waitForSyncIdle,
} from "./dashboard-fixtures.ts";
import { createIdentity, expect, signInOverHttp, test, toastWith } from "./support/auth.ts";

const EMPTY_TEXTS = {
  personal: "No personal emails",
  work: "No work emails",
  newsletters: "No newsletters",
  promotions: "No promotions",
  social: "No social emails",
  other: "No other emails",
} as const;
const TITLES = {
  personal: "Personal Emails",
  work: "Work Emails",
  newsletters: "Newsletters",
  promotions: "Promotions",
  social: "Social",
  other: "Other",
} as const;
type BucketName = keyof typeof TITLES;

function bucketCard(page: import("@playwright/test").Page, bucket: BucketName) {
  return page.locator(`section[data-bucket="${bucket}"]`);
}

test.beforeEach(async ({ page }) => acceptCookies(page));

test.describe("dashboard buckets", () => {
  test("cards show the first five emails, View All (N) and the exact empty texts", async ({ page }) => {
    const me = await identityWithMail([
      ...Array.from({ length: 7 }, (_, i) => BUCKET_MAIL.personal(i + 1)),
      BUCKET_MAIL.work(1),
    ]);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 8);

    const personal = bucketCard(page, "personal");
    await expect(personal.getByRole("heading", { name: "Personal Emails" })).toBeVisible();
    await expect(personal.getByRole("listitem")).toHaveCount(5);
    // Newest first: dinner plans 7 down to 3.
    await expect(personal.getByRole("listitem").first()).toContainText("Re: dinner plans 7");
    await expect(personal.getByRole("button", { name: "View All (7)" })).toBeVisible();

    const work = bucketCard(page, "work");
    await expect(work.getByRole("listitem")).toHaveCount(1);
    await expect(work.getByRole("button", { name: "View All (1)" })).toBeVisible();

    for (const bucket of ["newsletters", "promotions", "social", "other"] as const) {
      await expect(bucketCard(page, bucket)).toContainText(EMPTY_TEXTS[bucket]);
      await expect(bucketCard(page, bucket).getByRole("heading", { name: TITLES[bucket] })).toBeVisible();
    }
    // Contract order.
    const order = await page
      .locator("section[data-bucket]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-bucket")));
    expect(order).toEqual(["personal", "work", "newsletters", "promotions", "social", "other"]);
  });

  test("real corpus mail lands in buckets that match the server's counts", async ({ page }) => {
    const me = await createIdentity("gmail", "Corin");
    const copied = await copyCorpusMail(me.email, 12);
    expect(copied).toBe(12);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 12);
    // The analysis job runs after sync and may move an email to another bucket: compare once
    // every email is analysed, on freshly loaded cards.
    await expect
      .poll(
        async () => {
          const { emails } = await api<{ emails: Array<{ aiAnalysis: unknown }> }>(
            page,
            "/api/emails?limit=200",
          );
          return emails.length === 12 && emails.every((e) => e.aiAnalysis !== null);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.reload();
    for (const bucket of Object.keys(TITLES) as BucketName[]) {
      const { emails } = await api<{ emails: unknown[] }>(page, `/api/emails?bucket=${bucket}&limit=200`);
      const card = bucketCard(page, bucket);
      if (emails.length === 0) await expect(card).toContainText(EMPTY_TEXTS[bucket]);
      else {
        await expect(card.getByRole("button", { name: `View All (${emails.length})` })).toBeVisible();
        await expect(card.getByRole("listitem")).toHaveCount(Math.min(5, emails.length));
      }
    }
  });

  test("bucket dialog: counts, Select Multiple, bulk Mark Read and Archive reach the mailbox", async ({
    page,
  }) => {
    const me = await identityWithMail(Array.from({ length: 6 }, (_, i) => BUCKET_MAIL.personal(i + 1)));
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 6);

    await bucketCard(page, "personal").getByRole("button", { name: "View All (6)" }).click();
    const dialog = page.getByRole("dialog", { name: "Personal Emails" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("bucket-counts")).toHaveText("6 emails · 6 unread");
    // Rows: subject, sender, snippet.
    await expect(dialog.getByText("Re: dinner plans 6")).toBeVisible();
    await expect(dialog.getByText("Friend 6", { exact: true })).toBeVisible();

    await dialog.getByRole("button", { name: "Select Multiple" }).click();
    const markRead = dialog.getByRole("button", { name: "Mark Read" });
    const archive = dialog.getByRole("button", { name: "Archive" });
    await expect(markRead).toBeDisabled();
    await expect(archive).toBeDisabled();

    await dialog.getByRole("button", { name: "Select All" }).click();
    await expect(dialog.getByRole("button", { name: "Deselect All" })).toBeVisible();
    await dialog.getByRole("button", { name: "Deselect All" }).click();
    await expect(markRead).toBeDisabled();

    await dialog.getByRole("checkbox", { name: "Select Re: dinner plans 6" }).check();
    await dialog.getByRole("checkbox", { name: "Select Re: dinner plans 5" }).check();
    await markRead.click();
    await expect(dialog.getByTestId("bucket-counts")).toHaveText("6 emails · 4 unread");
    await expect.poll(async () => (await mailbox(me.email)).labels.UNREAD?.total).toBe(4);

    await dialog.getByRole("checkbox", { name: "Select Re: dinner plans 1" }).check();
    await archive.click();
    await expect(dialog.getByTestId("bucket-counts")).toHaveText("5 emails · 3 unread");
    await expect(dialog.getByText("Re: dinner plans 1")).toHaveCount(0);
    await expect.poll(async () => (await mailbox(me.email)).labels.INBOX?.total).toBe(5);
    await page.keyboard.press("Escape");
    await expect(bucketCard(page, "personal").getByRole("button", { name: "View All (5)" })).toBeVisible();
  });

  test("an empty bucket's dialog says so, and a refused bulk action toasts", async ({ page }) => {
    const me = await identityWithMail([BUCKET_MAIL.promotions(1), BUCKET_MAIL.promotions(2)]);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 2);
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("button", { name: "Buckets" })
      .click();
    const panel = page.getByRole("dialog", { name: "Email Buckets" });
    await panel.getByRole("button", { name: /^Social/ }).click();
    const social = page.getByRole("dialog", { name: "Social" });
    await expect(social.getByText("No emails in this category")).toBeVisible();
    await page.keyboard.press("Escape");

    await bucketCard(page, "promotions").getByRole("button", { name: "View All (2)" }).click();
    const promos = page.getByRole("dialog", { name: "Promotions" });
    await promos.getByRole("button", { name: "Select Multiple" }).click();
    await promos.getByRole("button", { name: "Select All" }).click();
    await page.route("**/api/emails/bulk-action", (route) =>
      route.fulfill({ status: 502, contentType: "application/json", body: '{"error":{"message":"down"}}' }),
    );
    await promos.getByRole("button", { name: "Archive" }).click();
    await expect(toastWith(page, "Error")).toContainText("Failed to archive emails");
    await promos.getByRole("button", { name: "Mark Read" }).click();
    await expect(toastWith(page, "Error")).toContainText("Failed to mark emails as read");
    await expect(promos.getByTestId("bucket-counts")).toHaveText("2 emails · 2 unread");
    // Issue 19.5: one Escape closes the dialog although the failure toast is up.
    await expect(toastWith(page, "Error")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(promos).toBeHidden();
  });

  test("bucket counts come from the stats call; each card fetches its five emails only", async ({ page }) => {
    const me = await identityWithMail([
      ...Array.from({ length: 12 }, (_, i) => BUCKET_MAIL.promotions(i + 1)),
      ...Array.from({ length: 3 }, (_, i) => BUCKET_MAIL.personal(i + 1)),
    ]);
    await signInOverHttp(page, me.email);
    await waitForSyncedEmails(page, 15);
    await waitForSyncIdle(page);

    const listReads: URL[] = [];
    let statsReads = 0;
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/emails" && url.searchParams.has("bucket")) listReads.push(url);
      if (url.pathname === "/api/emails/stats") statsReads++;
    });
    await page.reload();
    const promotions = bucketCard(page, "promotions");
    await expect(promotions.getByRole("button", { name: "View All (12)" })).toBeVisible();
    await expect(promotions.getByRole("listitem")).toHaveCount(5);
    await expect(promotions.getByText("12 unread")).toBeAttached();
    await expect(bucketCard(page, "personal").getByRole("button", { name: "View All (3)" })).toBeVisible();
    await expect(bucketCard(page, "other")).toContainText(EMPTY_TEXTS.other);

    // Every card reads five rows, never a second page; the counts came with the stats. (A sync
    // that ends after the reload refreshes the lists once more, so reads are counted per card.)
    expect([...new Set(listReads.map((u) => u.searchParams.get("bucket")))].sort()).toEqual(
      ["other", "newsletters", "personal", "promotions", "social", "work"].sort(),
    );
    for (const url of listReads) {
      expect(url.searchParams.get("limit")).toBe("5");
      expect(url.searchParams.has("cursor")).toBe(false);
    }
    expect(statsReads).toBeGreaterThanOrEqual(1);
    const stats = await api<{ buckets: Record<string, { total: number; unread: number }> }>(
      page,
      "/api/emails/stats",
    );
    expect(stats.buckets.promotions).toEqual({ total: 12, unread: 12 });
  });
});
