import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import {
  type AttachmentMail,
  attachmentMail,
  base64PartOf,
  type Part,
  pixelsOfColour,
  sha256,
} from "./attachments-mail.ts";
import { acceptCookies } from "./dashboard-fixtures.ts";
import {
  createIdentity,
  EMULATOR_URL,
  expect,
  type MailProvider,
  openDashboardWith,
  sessionOverHttp,
  test,
} from "./support/auth.ts";
import {
  emailOf,
  expectAccessibleDialog,
  openEmail,
  signedInWithMail,
  waitForSynced,
} from "./support/reader-mail.ts";

test.beforeEach(async ({ page }) => acceptCookies(page));

/** Clicks a Download control and returns the saved file's name and sha256. */
async function download(page: Page, control: Locator): Promise<{ name: string; sha: string }> {
  const started = page.waitForEvent("download");
  await control.click();
  const file = await started;
  const path = await file.path();
  return { name: file.suggestedFilename(), sha: sha256(readFileSync(path)) };
}

async function openAttachmentMail(page: Page, provider: MailProvider, extra: Part[] = []) {
  const subject = `Q3 numbers ${provider} ${Math.random().toString(36).slice(2, 8)}`;
  const mail = attachmentMail("robin@mailwise.test", subject, extra);
  const signedIn = await signedInWithMail(page, [{ raw: mail.raw, subject }], provider);
  const email = emailOf(signedIn.emails, subject);
  const reader = await openEmail(page, email);
  return { ...signedIn, mail, email, reader };
}

function row(reader: Locator, name: string): Locator {
  return reader.getByTestId("attachment").filter({ has: reader.page().getByText(name, { exact: true }) });
}

async function checkEverything(page: Page, reader: Locator, mail: AttachmentMail) {
  const list = reader.getByRole("region", { name: "Attachments" });
  // The PDF, the picture and the forwarded message; the logo is shown in the body, not listed.
  await expect(list.getByTestId("attachment")).toHaveCount(3);
  await expect(list.getByTestId("attachment-label").first()).toHaveText(
    `Q3 Budget.pdf · ${Math.round(mail.pdf.bytes.length / 1024)} KB`,
  );
  await expectAccessibleDialog(page);
  await expect(list).toContainText("chart.png");
  await expect(list).toContainText("Original plan.eml");
  await expect(list.getByRole("button", { name: "Preview Q3 Budget.pdf", exact: true })).toBeVisible();
  await expect(list.getByRole("button", { name: "Preview chart.png", exact: true })).toBeVisible();
  // A message is opened, not previewed.
  await expect(list.getByRole("button", { name: "Preview Original plan.eml" })).toHaveCount(0);

  // Downloads: the very bytes the provider holds, under the sender's file name.
  const pdf = await download(page, list.getByRole("button", { name: "Download Q3 Budget.pdf", exact: true }));
  expect(pdf).toEqual({ name: "Q3 Budget.pdf", sha: sha256(mail.pdf.bytes) });
  const png = await download(page, list.getByRole("button", { name: "Download chart.png", exact: true }));
  expect(png).toEqual({ name: "chart.png", sha: sha256(mail.image.bytes) });

  // The inline logo renders where the sender put it, without asking; the remote picture waits.
  const body = reader.frameLocator("iframe[title^='Message from']");
  const logo = body.getByRole("img", { name: "Company logo" });
  await expect(logo).toBeVisible();
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(96);
  await expect(reader.getByText("Remote images are hidden to protect your privacy.")).toBeVisible();
  // The frame's own CSP lets exactly the attachment route in, and nothing remote before consent.
  const srcdoc = (await reader.locator("iframe[title^='Message from']").getAttribute("srcdoc")) ?? "";
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(srcdoc)?.[1] ?? "";
  expect(csp).toMatch(/img-src data: cid: http:\/\/127\.0\.0\.1:\d+\/api\/attachments\/;/);
  expect(srcdoc).not.toContain("cid:logo");
  await expect(body.locator("img[alt='Remote banner']")).not.toHaveAttribute("src", /.+/);

  // Image preview: a frame with no script and no same-origin access, showing the picture.
  await list.getByRole("button", { name: "Preview chart.png", exact: true }).click();
  const imagePreview = page.getByRole("dialog", { name: "chart.png" });
  const frame = imagePreview.locator("iframe");
  await expect(frame).toHaveAttribute("sandbox", "");
  // The runner's scripts cannot enter a frame that runs none: the screenshot shows the bands.
  await expect
    .poll(async () => pixelsOfColour(page, await frame.screenshot(), [13, 148, 136]), { timeout: 10_000 })
    .toBeGreaterThan(320 * 50);
  await page.keyboard.press("Escape");
  await expect(imagePreview).toBeHidden();
  await expect(reader).toBeVisible();

  // PDF preview: the page drawn on a canvas by pdf.js, red bar included.
  await list.getByRole("button", { name: "Preview Q3 Budget.pdf", exact: true }).click();
  const pdfPreview = page.getByRole("dialog", { name: "Q3 Budget.pdf" });
  const page1 = pdfPreview.getByRole("img", { name: "Page 1 of 1" });
  await expect(page1).toBeVisible({ timeout: 15_000 });
  const redPixels = await page1.evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
    let red = 0;
    for (let i = 0; i < data.length; i += 4)
      if ((data[i] ?? 0) > 180 && (data[i + 1] ?? 255) < 90 && (data[i + 2] ?? 255) < 90) red++;
    return red;
  });
  expect(redPixels).toBeGreaterThan(1000);
  await page.keyboard.press("Escape");
  await expect(pdfPreview).toBeHidden();

  // The forwarded message opens as a message of its own, with its own attachment.
  await list.getByRole("button", { name: "Open Original plan.eml", exact: true }).click();
  const attached = page.getByRole("dialog", { name: mail.eml.subject });
  await expect(attached).toContainText(mail.eml.from);
  await expect(attached).toContainText(mail.eml.text);
  const notes = await download(
    page,
    attached.getByRole("button", { name: `Download ${mail.eml.notes.filename}`, exact: true }),
  );
  expect(notes).toEqual({ name: "notes.txt", sha: sha256(mail.eml.notes.bytes) });
  await page.keyboard.press("Escape");
  await expect(attached).toBeHidden();
  await expect(reader).toBeVisible();
}

for (const provider of ["gmail", "outlook"] as const) {
  test(`${provider}: attachments download byte for byte, preview, show inline and open as messages`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { reader, mail } = await openAttachmentMail(page, provider);
    await checkEverything(page, reader, mail);
  });
}

test("hostile file names are shown as text, fit the reader and are saved safely", async ({ page }) => {
  const bytes = Buffer.from("hostile\n");
  const names = [
    "invoice\u202Efdp.exe",
    "report\u0007\u0001\u001b[31m.txt",
    `${"L".repeat(296)}.pdf`,
    "../../etc/passwd",
    "C:\\temp\\evil.bat",
    "<img src=x onerror=alert(1)>.txt",
  ];
  const { reader } = await openAttachmentMail(
    page,
    "gmail",
    names.map((filename) => ({ filename, mimeType: "application/octet-stream", bytes })),
  );
  const list = reader.getByRole("region", { name: "Attachments" });
  await expect(list.getByTestId("attachment")).toHaveCount(3 + names.length);
  // The override never reaches the page (the server drops it, or the reader shows it as a mark):
  // the name reads in its real order, ending in .exe.
  await expect(list).toContainText(/invoice\uFFFD?fdp\.exe/);
  expect(await list.textContent()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  await expect(list).toContainText("report\uFFFD\uFFFD\uFFFD[31m.txt");
  await expect(list).toContainText("<img src=x onerror=alert(1)>.txt");
  expect(await list.locator("img").count()).toBe(0);
  // Nothing sticks out sideways: the long name is shortened and every row fits the dialog.
  const overflow = await reader.evaluate((dialog) => {
    const box = dialog.getBoundingClientRect();
    return [...dialog.querySelectorAll("[data-testid=attachment] *")].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
    }).length;
  });
  expect(overflow).toBe(0);

  const rtl = await download(page, list.getByRole("button", { name: /^Download invoice\uFFFD?fdp\.exe$/ }));
  expect(rtl.name).toMatch(/^invoice_?fdp\.exe$/);
  expect(rtl.sha).toBe(sha256(bytes));
  const traversal = await download(page, list.getByRole("button", { name: "Download ../../etc/passwd" }));
  expect(traversal.name).not.toMatch(/[/\\]/);
  const long = await download(page, list.getByRole("button", { name: /^Download L+\.pdf$/ }));
  expect(long.name.endsWith(".pdf")).toBe(true);
  expect(long.name.length).toBeLessThanOrEqual(180);
});

test("a failed download or preview says why in words: an expired link, mail deleted at the provider", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { reader, identity, delivered, mail } = await openAttachmentMail(page, "gmail");
  const list = reader.getByRole("region", { name: "Attachments" });

  // A link whose signature no longer holds (as after an hour): the server says invalid_link.
  await page.route("**/api/attachments/**", (route) => route.continue({ url: `${route.request().url()}x` }));
  await list.getByRole("button", { name: "Download chart.png", exact: true }).click();
  await expect(row(list, "chart.png").getByRole("alert")).toHaveText(
    "This link had expired. It has been renewed: try again.",
  );
  await page.unrouteAll();

  // Deleted at the provider after the mail was opened.
  const id = delivered.get(mail.subject)?.id ?? "";
  const removed = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages/${id}?provider=google`,
    { method: "DELETE" },
  );
  expect(removed.status).toBe(204);
  await list.getByRole("button", { name: "Download Q3 Budget.pdf", exact: true }).click();
  await expect(row(list, "Q3 Budget.pdf").getByRole("alert")).toHaveText(
    "This attachment is no longer available: it may have been deleted in Gmail.",
  );
  // The preview says the same, inside its dialog, instead of an error page.
  await list.getByRole("button", { name: "Preview Q3 Budget.pdf", exact: true }).click();
  const preview = page.getByRole("dialog", { name: "Q3 Budget.pdf" });
  await expect(preview.getByRole("alert")).toHaveText(
    "This attachment is no longer available: it may have been deleted in Gmail.",
  );
  await page.keyboard.press("Escape");
  await expect(preview).toBeHidden();
});

test("revoked access to the mailbox: the download says to reconnect", async ({ page }) => {
  test.setTimeout(60_000);
  const { reader, identity } = await openAttachmentMail(page, "gmail");
  const revoked = await fetch(`${EMULATOR_URL}/_admin/tokens/revoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: identity.email, provider: "google" }),
  });
  expect(revoked.status).toBe(200);
  const list = reader.getByRole("region", { name: "Attachments" });
  await list.getByRole("button", { name: "Download chart.png", exact: true }).click();
  await expect(row(list, "chart.png").getByRole("alert")).toHaveText(
    "Mailwise can no longer reach this Gmail account. Reconnect it under Accounts, then try again.",
  );
});

test("outlook: the seeded demo files (.docx, .zip, .ics) download exactly as the emulator holds them", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const identity = await createIdentity("outlook");
  const seeded = await fetch(
    `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/demo-attachments?provider=microsoft`,
    { method: "POST" },
  );
  expect(seeded.status).toBe(201);
  const { messages } = (await seeded.json()) as { messages: { id: string; subject: string }[] };
  const subject = "Contract draft, project files and the kickoff";
  const id = messages.find((m) => m.subject === subject)?.id ?? "";
  // What the mailbox holds, read back through the emulator's admin API and parsed here.
  const held = (await (
    await fetch(
      `${EMULATOR_URL}/_admin/mailboxes/${encodeURIComponent(identity.email)}/messages/${id}?provider=microsoft`,
    )
  ).json()) as { raw: string };
  const expected = new Map(
    ["Contract draft.docx", "project-files.zip", "kickoff.ics"].map((name) => [
      name,
      sha256(base64PartOf(held.raw, name)),
    ]),
  );
  expect([...expected.keys()].sort()).toEqual(["Contract draft.docx", "kickoff.ics", "project-files.zip"]);

  const token = await sessionOverHttp(page, identity.email);
  const emails = await waitForSynced(page, [subject], token);
  await openDashboardWith(page, token);
  const reader = await openEmail(page, emailOf(emails, subject));
  const list = reader.getByRole("region", { name: "Attachments" });
  await expect(list.locator("svg[data-kind]")).toHaveCount(3);
  expect(
    await list.locator("svg[data-kind]").evaluateAll((icons) => icons.map((i) => i.dataset.kind)),
  ).toEqual(expect.arrayContaining(["document", "archive", "calendar"]));
  for (const [name, sha] of expected) {
    const saved = await download(page, list.getByRole("button", { name: `Download ${name}`, exact: true }));
    expect(saved).toEqual({ name, sha });
  }
  // Neither a Word file nor an archive is previewed.
  await expect(list.getByRole("button", { name: /^Preview / })).toHaveCount(0);
});
