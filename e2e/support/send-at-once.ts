import { expect, type Page } from "@playwright/test";
import { storedToken } from "./auth.ts";

/** Undo send off (delay 0): these tests are about what is sent; compose-undo-send.server-clock.spec.ts holds mail. */
export async function sendAtOnce(page: Page) {
  const res = await page.request.patch("/api/settings/mail", {
    data: { sendDelaySeconds: 0 },
    headers: { authorization: `Bearer ${await storedToken(page)}` },
  });
  expect(res.ok()).toBe(true);
}
