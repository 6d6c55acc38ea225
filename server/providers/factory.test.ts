import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthServices } from "../auth/services.ts";
import { mailAccounts } from "../db/schema.ts";
import { classifyFailure } from "../jobs/retry-policy.ts";
import { createClock } from "../lib/clock.ts";
import { type AuthFixture, PEOPLE, startAuthFixture } from "../test/auth-fixture.ts";
import { createMailProviderClient } from "./factory.ts";

/**
 * The factory with the real token service on a real database: accounts connected through the
 * app's own sign-in, tokens decrypted from the vault, and a provider 401 answered by a forced
 * refresh that is stored (house style 8: real rows, real HTTP).
 */
describe("createMailProviderClient with AccountTokenService", () => {
  let fixture: AuthFixture;
  let services: Awaited<ReturnType<typeof createAuthServices>>;

  beforeAll(async () => {
    fixture = await startAuthFixture("pglite");
    services = await createAuthServices({
      config: fixture.server.config,
      db: fixture.database.database.db,
      clock: createClock(),
    });
    await fixture.signIn("gmail", PEOPLE.alex);
    await fixture.signIn("outlook", PEOPLE.jordan);
  });

  afterAll(async () => {
    await fixture?.close();
  });

  async function account(email: string) {
    const [row] = await fixture.database.database.db
      .select()
      .from(mailAccounts)
      .where(eq(mailAccounts.email, email));
    if (!row) throw new Error(`no account row for ${email}`);
    return row;
  }

  it.each([
    ["gmail", PEOPLE.alex],
    ["outlook", PEOPLE.jordan],
  ])("%s: a token the provider refuses early is refreshed, stored and used", async (_kind, email) => {
    const before = await account(email);
    const client = createMailProviderClient({
      account: before,
      config: fixture.server.config,
      accountTokens: services.accountTokens,
    });
    expect((await client.getProfile()).email).toBe(email);
    const unchanged = await account(email);
    expect(unchanged.accessTokenCiphertext).toBe(before.accessTokenCiphertext);

    await fixture.emulatorAdmin("tokens/expire", { email });
    expect((await client.getProfile()).email).toBe(email);
    const after = await account(email);
    expect(after.accessTokenCiphertext).not.toBe(before.accessTokenCiphertext);
    expect(after.status).toBe("active");
  });

  it.each([
    ["gmail", PEOPLE.alex, "google"],
    ["outlook", PEOPLE.jordan, "microsoft"],
  ])("%s: a revoked grant surfaces as reauth and marks the account", async (_kind, email, provider) => {
    const client = createMailProviderClient({
      account: await account(email),
      config: fixture.server.config,
      accountTokens: services.accountTokens,
    });
    await fixture.emulatorAdmin("tokens/revoke", { email, provider });
    const failure = await client.getCursor().catch((err: unknown) => err);
    expect(classifyFailure(failure).kind).toBe("reauth");
    expect((await account(email)).status).toBe("reauth_required");
  });
});
