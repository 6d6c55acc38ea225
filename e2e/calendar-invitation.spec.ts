import { Temporal } from "temporal-polyfill";
import { acceptCookies } from "./dashboard-fixtures.ts";
import { EMULATOR_URL, expect, test } from "./support/auth.ts";
import { expectNoSeriousA11yViolations } from "./support/axe.ts";
import { connectCalendarOverHttp, seededPerson, signInOverHttp } from "./support/calendar.ts";

const ZONE = "America/New_York";
test.use({ timezoneId: ZONE, locale: "en-US" });
test.beforeEach(async ({ page }) => acceptCookies(page));

/** The emulator's demo meeting invitation, sent to `email` by `organizer`. */
async function deliverInvitation(
  email: string,
  organizer: { name: string; address: string },
  provider: "google" | "microsoft" = "google",
) {
  const delivered = await fetch(`${EMULATOR_URL}/_admin/mailboxes/${email}/invitation?provider=${provider}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ organizer }),
  });
  expect(delivered.status).toBe(201);
}

test("an invitation email shows its event in the reader, and Add to calendar puts it on the calendar", async ({
  page,
}) => {
  const me = await seededPerson("gmail", ZONE);
  await deliverInvitation(me.email, { name: "Priya Shah", address: "priya.shah@gmail.com" });
  await signInOverHttp(page, me);

  const row = page.locator("#inbox [data-email-id]", { hasText: "Invitation: Roadmap review" });
  await row.first().click();
  const reader = page.getByRole("dialog", { name: /^Invitation: Roadmap review/ });
  const card = reader.getByTestId("invitation-card");
  await expect(card.getByRole("heading", { name: "Roadmap review" })).toBeVisible();
  // 15:00 London is 10:00 in New York (the reader's zone), three days from now.
  const day = Temporal.Now.zonedDateTimeISO("Europe/London").toPlainDate().add({ days: 3 });
  const weekday = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" }).format(
    new Date(`${day.toString()}T12:00:00Z`),
  );
  await expect(card).toContainText(weekday);
  await expect(card).toContainText("10:00 AM");
  await expect(card).toContainText("Meeting room 2 / video call");
  await expect(card).toContainText("Priya Shah (priya.shah@gmail.com)");
  // No calendar yet: the card says where to connect one.
  await expect(card).toContainText("Connect a calendar in the Calendar panel");
  await expectNoSeriousA11yViolations(page, "reader with an invitation", { include: '[role="dialog"]' });

  // Connect the calendar, open the mail again, and add the event.
  await reader.getByRole("button", { name: "Close" }).first().click();
  await connectCalendarOverHttp(page, me.email, "google");
  await page.reload();
  await row.first().click();
  const add = card.getByRole("button", { name: "Add to calendar" });
  await add.click();
  await expect(card.getByRole("status")).toHaveText(`Added to Google Calendar (${me.email}).`);

  const stored = (await (await fetch(`${EMULATOR_URL}/_admin/calendars/${me.email}`)).json()) as {
    events: { summary: string; organizer: string; location?: string }[];
  };
  // Priya's invitation also put her event in this calendar (as Google does): count ours only.
  const added = stored.events.filter((e) => e.summary === "Roadmap review" && e.organizer === me.email);
  expect(added).toHaveLength(1);
  expect(added[0]?.location).toBe("Meeting room 2 / video call");
});

test("an invitation in mail the security scan flags warns, and adds only on a second, deliberate click", async ({
  page,
}) => {
  const me = await seededPerson("gmail", ZONE);
  // A look-alike of a payment brand's domain sends the invitation.
  await deliverInvitation(me.email, { name: "PayPal Billing", address: "billing@paypa1.com" });
  await signInOverHttp(page, me);
  await connectCalendarOverHttp(page, me.email, "google");
  const token = await page.evaluate(() => localStorage.getItem("sessionToken"));
  // The scan's verdict is part of the analysis: wait until the server has it.
  let verdict: string | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (
          await page.request.get("/api/emails?limit=20", { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { emails: { id: string; subject: string }[] };
        const mail = list.emails.find((e) => e.subject.startsWith("Invitation: Roadmap review"));
        if (!mail) return undefined;
        const one = (await (
          await page.request.get(`/api/emails/${mail.id}`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { aiAnalysis?: { security?: { verdict?: string } } | null };
        verdict = one.aiAnalysis?.security?.verdict;
        return verdict;
      },
      { timeout: 30_000, message: "the invitation mail's security verdict" },
    )
    .toMatch(/^(suspicious|dangerous)$/);
  await page.reload();

  await page.locator("#inbox [data-email-id]", { hasText: "Invitation: Roadmap review" }).first().click();
  const reader = page.getByRole("dialog", { name: /^Invitation: Roadmap review/ });
  const card = reader.getByTestId("invitation-card");
  await expect(card.getByTestId("invitation-risk")).toContainText(`marked ${verdict}`);
  const stored = async () =>
    (
      (await (await fetch(`${EMULATOR_URL}/_admin/calendars/${me.email}`)).json()) as {
        events: { summary: string }[];
      }
    ).events.filter((e) => e.summary === "Roadmap review").length;
  if (verdict === "dangerous") {
    await expect(card.getByRole("button", { name: /add/i })).toHaveCount(0);
    expect(await stored()).toBe(0);
    return;
  }
  await expect(card.getByRole("button", { name: "Add to calendar" })).toHaveCount(0);
  await card.getByRole("button", { name: "Add anyway…" }).click();
  expect(await stored()).toBe(0);
  await card.getByRole("button", { name: "Yes, add this event" }).click();
  await expect(card.getByRole("status")).toHaveText(`Added to Google Calendar (${me.email}).`);
  expect(await stored()).toBe(1);
});

test("Yes on an invitation, with no calendar connected, reaches the organizer's calendar", async ({
  page,
}) => {
  const me = await seededPerson("gmail", ZONE);
  const title = `Garden party ${me.email.split("@")[0]}`;
  const organizer = "priya.shah@gmail.com";
  // Priya's calendar sends the invitation (sendUpdates=all), as Google Calendar does.
  const day = Temporal.Now.plainDateISO(ZONE).add({ days: 4 }).toString();
  const made = await fetch(`${EMULATOR_URL}/_admin/calendars/${organizer}/events?provider=google`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      summary: title,
      start: { local: `${day}T17:00:00`, timeZone: ZONE },
      end: { local: `${day}T19:00:00`, timeZone: ZONE },
      attendees: [{ email: me.email }],
      sendUpdates: "all",
    }),
  });
  expect(made.status).toBe(201);
  await signInOverHttp(page, me);

  await page
    .locator("#inbox [data-email-id]", { hasText: `Invitation: ${title}` })
    .first()
    .click();
  const card = page
    .getByRole("dialog", { name: new RegExp(`^Invitation: ${title}`) })
    .getByTestId("invitation-card");
  const answer = card.getByTestId("invitation-answer");
  await expect(answer.getByRole("button", { name: "Maybe" })).toBeVisible();
  // An answer that cannot be delivered rolls back and says why (the network answers 502 once).
  await page.route("**/invitation/response", (route) =>
    route.fulfill({
      status: 502,
      contentType: "application/json",
      body: JSON.stringify({
        error: {
          code: "provider_unavailable",
          message: "Sending your answer failed: Gmail is not responding.",
        },
      }),
    }),
  );
  await answer.getByRole("button", { name: "No" }).click();
  await expect(answer.getByRole("alert")).toHaveText(
    "We could not send your answer: Sending your answer failed: Gmail is not responding.",
  );
  await expect(answer.getByRole("button", { name: "No" })).toHaveAttribute("aria-pressed", "false");
  await page.unroute("**/invitation/response");
  await answer.getByRole("button", { name: "Yes" }).click();
  await expect(answer.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "true");
  await expect(answer.getByTestId("invitation-answer-status")).toHaveText(
    `You answered Yes. Your answer was sent to ${organizer}.`,
  );
  await expectNoSeriousA11yViolations(page, "invitation answered", { include: '[role="dialog"]' });

  // The organizer sees the answer on her event.
  await expect
    .poll(async () => {
      const stored = (await (
        await fetch(`${EMULATOR_URL}/_admin/calendars/${organizer}?provider=google`)
      ).json()) as {
        events: { summary: string; attendees: { email: string; response: string }[] }[];
      };
      return stored.events.find((e) => e.summary === title)?.attendees.find((a) => a.email === me.email)
        ?.response;
    })
    .toBe("accepted");
});

for (const provider of ["gmail", "outlook"] as const) {
  test(`the answer to an invitation is still shown after a reload (${provider})`, async ({ page }) => {
    const me = await seededPerson(provider, ZONE);
    await deliverInvitation(
      me.email,
      { name: "Priya Shah", address: "priya.shah@gmail.com" },
      provider === "gmail" ? "google" : "microsoft",
    );
    await signInOverHttp(page, me);
    const open = async () => {
      await page.locator("#inbox [data-email-id]", { hasText: "Invitation: Roadmap review" }).first().click();
      return page
        .getByRole("dialog", { name: /^Invitation: Roadmap review/ })
        .getByTestId("invitation-card")
        .getByTestId("invitation-answer");
    };
    let answer = await open();
    await answer.getByRole("button", { name: "Yes" }).click();
    const said = "You answered Yes. Your answer was sent to priya.shah@gmail.com.";
    await expect(answer.getByTestId("invitation-answer-status")).toHaveText(said);

    await page.reload();
    answer = await open();
    await expect(answer.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "true");
    await expect(answer.getByRole("button", { name: "No" })).toHaveAttribute("aria-pressed", "false");
    await expect(answer.getByTestId("invitation-answer-status")).toHaveText(said);
  });
}
