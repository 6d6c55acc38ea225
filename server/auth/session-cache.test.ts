import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../db/schema.ts";
import { createClock } from "../lib/clock.ts";
import { openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { createUser } from "../test/factories.ts";
import { createSessionService } from "./sessions.ts";

describe("cached session lookups (embedded database)", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("pglite");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("serves repeated lookups from memory, yet logout and expiry take effect at once", async () => {
    const clock = createClock();
    const service = createSessionService(t.database.db, clock, { cacheMs: 60_000 });
    const user = await createUser(t.database.db);
    const token = await service.create(user.id);
    const ctx = await service.authenticate(token);
    expect(ctx.userId).toBe(user.id);

    // Proof the second lookup comes from memory: the row is gone from the table, the token still works.
    await t.database.db.delete(sessions).where(eq(sessions.id, ctx.sessionId));
    await expect(service.authenticate(token)).resolves.toEqual(ctx);

    // Expiry is judged against the clock on every call.
    clock.advance(31 * 24 * 60 * 60);
    await expect(service.authenticate(token)).rejects.toMatchObject({ code: "session_expired" });
  });

  it("logout evicts the cached session", async () => {
    const service = createSessionService(t.database.db, createClock(), { cacheMs: 60_000 });
    const user = await createUser(t.database.db);
    const token = await service.create(user.id);
    const ctx = await service.authenticate(token);
    await service.end(ctx);
    await expect(service.authenticate(token)).rejects.toMatchObject({
      code: "session_expired",
      message: "Session invalidated",
    });
  });

  it("a session ended with a grace works until the grace is over, and a logout meanwhile ends it at once", async () => {
    const clock = createClock();
    const service = createSessionService(t.database.db, clock, { cacheMs: 60_000 });
    const user = await createUser(t.database.db);
    const invalidated = { code: "session_expired", message: "Session invalidated" };

    const replaced = await service.create(user.id);
    const ctx = await service.authenticate(replaced);
    await service.end(ctx, { graceMs: 30_000 });
    await expect(service.authenticate(replaced)).resolves.toEqual(ctx);
    clock.advance(31);
    await expect(service.authenticate(replaced)).rejects.toMatchObject(invalidated);

    const loggedOut = await service.create(user.id);
    const other = await service.authenticate(loggedOut);
    await service.end(other, { graceMs: 30_000 });
    await service.end(other);
    await expect(service.authenticate(loggedOut)).rejects.toMatchObject(invalidated);
    // A later grace never puts an end off.
    await service.end(other, { graceMs: 30_000 });
    await expect(service.authenticate(loggedOut)).rejects.toMatchObject(invalidated);
  });
});
