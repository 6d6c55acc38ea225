/**
 * The AI Insights side panel against the real server and its local engine: the analysis of a
 * synced email with the spec's caps, the response generator per style, agent learning, the
 * 'AI analysis not available' path and the failure toast.
 */
import type { Page } from "@playwright/test";
import { expect, recordToasts, seenToasts, test, toastWith } from "./support/auth.ts";
import {
  type AppEmail,
  api,
  emailOf,
  expectAccessibleDialog,
  openEmail,
  signedInWithMail,
} from "./support/reader-mail.ts";
import { sendAtOnce } from "./support/send-at-once.ts";

interface StoredAnalysis {
  summary?: string;
  importance?: number;
  category?: string;
  urgency?: string;
  sentiment?: string;
  keyPoints?: string[];
  suggestedActions?: string[];
  responseTime?: string;
  engine?: string;
  security?: { verdict: string };
}

const BUDGET = {
  from: { name: "Priya Shah", address: "priya.shah@acme-corp.example" },
  subject: "Q3 budget review before Friday",
  text: [
    "Hi,",
    "",
    "Could you send me the revised Q3 budget by Friday? The client meeting moved to Monday at 10:00.",
    "Please also confirm the invoice total for the Berlin project and check the travel costs.",
    "We need to agree on the headcount plan and the vendor contract before the board call.",
    "Let me know if anything is blocking you.",
    "",
    "Thanks,",
    "Priya",
  ].join("\n"),
};
const INVOICE = {
  from: { name: "Billing", address: "billing@cloudhost.example" },
  subject: "Your monthly invoice is ready",
  text: "Your monthly invoice INV-2291 for 49.00 EUR is attached. Payment is due in 14 days.",
};
const NEWSLETTER = {
  from: { name: "Weekly Digest", address: "digest@news.example" },
  subject: "This week in product design",
  text: "Our weekly newsletter: five reads on product design. Unsubscribe at any time.",
  headers: { "List-Unsubscribe": "<https://news.example/unsub>" },
};

/** Waits until the background analysis job stored a full analysis for the email. */
async function analysedEmail(page: Page, email: AppEmail): Promise<StoredAnalysis> {
  let analysis: StoredAnalysis = {};
  await expect
    .poll(
      async () => {
        const detail = await api<{ aiAnalysis: StoredAnalysis | null }>(page, `/api/emails/${email.id}`);
        analysis = detail.aiAnalysis ?? {};
        return typeof analysis.summary === "string";
      },
      { timeout: 25_000, message: "the analysis job should analyse the synced email" },
    )
    .toBe(true);
  return analysis;
}

async function openInsights(page: Page, email: AppEmail) {
  const reader = await openEmail(page, email);
  await reader.getByRole("button", { name: "AI Insights" }).click();
  const panel = page.getByRole("dialog", { name: "AI Insights" });
  await expect(panel).toBeVisible();
  return panel;
}

test("the panel shows the analysis of a synced email with the spec's fields and caps", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [BUDGET, INVOICE, NEWSLETTER]);
  const email = emailOf(emails, BUDGET.subject);
  const stored = await analysedEmail(page, email);
  // The user answers Priya: she becomes a correspondent, the kind of sender Agent Learning is about.
  const auth = { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("sessionToken"))}` };
  await sendAtOnce(page);
  const sent = await page.request.post("/api/emails/send", {
    headers: auth,
    data: {
      to: BUDGET.from.address,
      subject: `Re: ${BUDGET.subject}`,
      body: "On it.",
      inReplyToId: email.id,
    },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  await expect
    .poll(async () => {
      const { memories } = await api<{ memories: Array<{ kind: string }> }>(page, "/api/agent/memories");
      return memories.some((m) => m.kind === "contact");
    })
    .toBe(true);
  // The reply makes Priya's mail a conversation of two; this test reads the one message's insights,
  // so it lists messages (conversation view off), as Gmail lets a person choose.
  const view = await page.request.patch("/api/settings/mail", {
    headers: auth,
    data: { conversationView: false },
  });
  expect(view.ok(), await view.text()).toBe(true);
  await page.evaluate(() => localStorage.setItem("mailwise:conversationView", "off"));
  await page.reload();
  const panel = await openInsights(page, email);

  // Overview: subject, sender, urgency and sentiment badges, summary, category, N/10.
  await expect(panel.getByRole("heading", { name: BUDGET.subject })).toBeVisible();
  await expect(panel).toContainText("priya.shah@acme-corp.example");
  await expect(panel.getByTestId("urgency")).toHaveText(`Urgency: ${stored.urgency}`);
  await expect(panel.getByTestId("sentiment")).toHaveText(`Sentiment: ${stored.sentiment}`);
  await expect(panel.getByTestId("summary")).toHaveText(stored.summary ?? "");
  await expect(panel.getByTestId("category")).toHaveText(stored.category ?? "");
  await expect(panel.getByTestId("importance")).toHaveText(`${stored.importance}/10`);
  await expect(panel.getByTestId("importance")).toHaveText(/^(10|\d)\/10$/);
  await expect(panel.getByTestId("response-time")).toHaveText(stored.responseTime ?? "");
  await expect(panel.getByTestId("analysis-engine")).toHaveText("Local analyzer");

  // Up to 3 key points and 3 suggested actions, exactly as stored.
  const keyPoints = panel.getByRole("list", { name: "Key points" }).getByRole("listitem");
  const actions = panel.getByRole("list", { name: "Suggested actions" }).getByRole("listitem");
  const wantedPoints = (stored.keyPoints ?? []).slice(0, 3);
  const wantedActions = (stored.suggestedActions ?? []).slice(0, 3);
  expect(wantedPoints.length, "the local engine finds key points in this email").toBeGreaterThan(0);
  await expect(keyPoints).toHaveText(wantedPoints);
  await expect(actions).toHaveText(wantedActions);
  expect(await keyPoints.count()).toBeLessThanOrEqual(3);
  expect(await actions.count()).toBeLessThanOrEqual(3);

  // The security verdict with its reasons (or the all-clear).
  await expect(panel.getByTestId("security-verdict")).toHaveAttribute(
    "data-verdict",
    stored.security?.verdict ?? "",
  );

  // Agent Learning: the 2 newest memories about the person's correspondents (Priya, whom they
  // answered), none about the one-off invoice and newsletter senders.
  const memories = await api<{ memories: Array<{ content: string; kind: string }> }>(
    page,
    "/api/agent/memories",
  );
  const aboutCorrespondents = memories.memories.filter((m) => m.kind === "contact" || m.kind === "fact");
  expect(aboutCorrespondents.length).toBeGreaterThan(0);
  // One memory per correspondent: its wording moves from "You reply to" (the reply) to "You write
  // to" (once the sent copy is synced and read), so the panel is matched on whom it is about.
  const items = panel.getByTestId("agent-learning").getByRole("listitem");
  await expect(items).toHaveCount(Math.min(2, aboutCorrespondents.length));
  await expect(items.first()).toContainText(BUDGET.from.address);
  await expect(items.first()).toHaveText(/^You (reply|write) to /);
  await expect(panel.getByTestId("agent-learning")).not.toContainText("billing@cloudhost.example");
  await expect(panel.getByTestId("agent-learning")).not.toContainText("digest@news.example");
  await expectAccessibleDialog(page, "[data-testid=ai-insights]");

  // Escape closes the panel only; the reader stays.
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(page.getByRole("dialog", { name: BUDGET.subject })).toBeVisible();
});

test("the response generator drafts per style; the list scrolls at 10rem; Copy says 'Copied'", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { emails } = await signedInWithMail(page, [BUDGET]);
  const panel = await openInsights(page, emailOf(emails, BUDGET.subject));

  const style = panel.getByLabel("Response style");
  await expect(style.locator("option")).toHaveText(["Professional", "Friendly", "Brief", "Detailed"]);
  await expect(style).toHaveValue("professional");

  const seen = new Map<string, string[]>();
  for (const responseType of ["professional", "friendly", "brief", "detailed"]) {
    await style.selectOption(responseType);
    const request = page.waitForRequest(
      (r) =>
        r.url().endsWith(`/api/agent/response/${emailOf(emails, BUDGET.subject).id}`) &&
        r.method() === "POST",
    );
    const response = page.waitForResponse((r) => r.url().includes("/api/agent/response/"));
    await panel.getByRole("button", { name: "Generate responses" }).click();
    expect((await request).postDataJSON()).toEqual({ responseType });
    const answer = (await (await response).json()) as { responses: string[] };
    expect(answer.responses.length).toBeGreaterThan(0);
    const list = panel.getByRole("list", { name: "Generated responses" });
    await expect(list.getByRole("listitem").locator("p")).toHaveText([...new Set(answer.responses)]);
    seen.set(responseType, answer.responses);
    await expect(list).toHaveCSS("max-height", "160px");
    await expect(list).toHaveCSS("overflow-y", "auto");
  }
  // The styles are not one text under four names.
  expect(seen.get("brief")).not.toEqual(seen.get("detailed"));
  await expect(panel.getByTestId("responses-engine")).toHaveText("Written by Local analyzer");

  const first = seen.get("detailed")?.[0] ?? "";
  await recordToasts(page);
  await panel.getByRole("button", { name: "Copy response 1" }).click();
  await expect.poll(() => seenToasts(page)).toContainEqual(expect.stringContaining("Copied"));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
});

test("without an analysis the panel says so and analyses the email on request", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [BUDGET]);
  const email = emailOf(emails, BUDGET.subject);
  // The app sees this email as not analysed yet (the job may already have run on the server),
  // until the person asks: then the live stream's "analysis done" re-reads the real rows.
  let hideAnalysis = true;
  await page.route("**/api/emails**", async (route) => {
    if (route.request().method() !== "GET" || !hideAnalysis) return route.fallback();
    const response = await route.fetch();
    // A 304 (the app asked If-None-Match) has no body: the app keeps what this handler gave it.
    if (response.status() === 304) return route.fulfill({ response });
    const body = (await response.json()) as { emails?: Array<Record<string, unknown>> } & Record<
      string,
      unknown
    >;
    if (Array.isArray(body.emails)) for (const e of body.emails) e.aiAnalysis = null;
    else if (body.id === email.id) body.aiAnalysis = null;
    await route.fulfill({ response, json: body });
  });
  await page.reload();
  const panel = await openInsights(page, email);
  await expect(panel).toContainText("AI analysis not available");
  await expect(panel.getByTestId("importance")).toHaveCount(0);

  const analysed = page.waitForResponse(
    (r) => r.url().endsWith(`/api/agent/analyze/${email.id}`) && r.request().method() === "POST",
  );
  hideAnalysis = false;
  await panel.getByRole("button", { name: "Analyze now" }).click();
  const answer = (await (await analysed).json()) as StoredAnalysis;
  expect(answer.engine).toBe("local");
  await expect(panel).not.toContainText("AI analysis not available");
  await expect(panel.getByTestId("importance")).toHaveText(`${answer.importance}/10`);
  await expect(panel.getByTestId("summary")).toHaveText(answer.summary ?? "");
  await expect(panel.getByRole("list", { name: "Key points" }).getByRole("listitem")).toHaveCount(
    Math.min(3, answer.keyPoints?.length ?? 0),
  );
  // A list refresh (sync finished) may still be passing through the handler as the page closes.
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("a failed generation shows 'Error' / 'Failed to generate responses'", async ({ page }) => {
  const { emails } = await signedInWithMail(page, [BUDGET]);
  await page.route("**/api/agent/response/**", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: "{}" }),
  );
  const panel = await openInsights(page, emailOf(emails, BUDGET.subject));
  await panel.getByRole("button", { name: "Generate responses" }).click();
  const toast = toastWith(page, "Error");
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Failed to generate responses");
  await expect(panel.getByRole("list", { name: "Generated responses" })).toHaveCount(0);
});

const PHISH = {
  from: { name: "PayPal Security", address: "alerts@paypa1-secure.example" },
  subject: "Your account has been limited",
  text: "We noticed unusual activity. Verify your password now at http://192.168.10.20/paypal/login or your account will be closed.",
  headers: {
    "Authentication-Results": "mx.google.com; spf=fail smtp.mailfrom=paypa1-secure.example; dmarc=fail",
  },
};

test("on a 360 px phone: the reader warns with the verdict and reasons; the panel fits", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { emails } = await signedInWithMail(page, [PHISH]);
  const email = emailOf(emails, PHISH.subject);
  const stored = (await analysedEmail(page, email)) as StoredAnalysis & {
    security: { verdict: string; reasons: Array<{ message: string }> };
  };
  expect(stored.security.verdict, "the scanner flags this phish").not.toBe("safe");
  await page.reload();
  const reader = await openEmail(page, email);
  await expect(reader.getByTestId("security-verdict")).toHaveAttribute(
    "data-verdict",
    stored.security.verdict,
  );
  await expect(reader.getByRole("alert").getByRole("listitem")).toHaveText(
    stored.security.reasons.map((r) => r.message),
  );

  await reader.getByRole("button", { name: "AI Insights" }).click();
  const panel = page.getByRole("dialog", { name: "AI Insights" });
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(360);
  const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(panel.getByRole("list", { name: "Security findings" }).getByRole("listitem")).toHaveText(
    stored.security.reasons.map((r) => r.message),
  );
  await panel.getByRole("button", { name: "Generate responses" }).scrollIntoViewIfNeeded();
  await expect(panel.getByRole("button", { name: "Generate responses" })).toBeInViewport();
  await expectAccessibleDialog(page, "[data-testid=ai-insights]");
});
