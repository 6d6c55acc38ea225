import { afterAll, afterEach, beforeAll } from "vitest";
import { PEOPLE } from "./auth-fixture.ts";
import type { Provider } from "./slow-provider.ts";
import { type SyncFixture, startSyncFixture } from "./sync-fixture.ts";

/** One person per provider for suites run on both, and another on the other provider (their ids must 404). */
export const PROVIDER_CASES: readonly {
  provider: Provider;
  owner: string;
  other: string;
  otherProvider: Provider;
}[] = [
  { provider: "gmail", owner: PEOPLE.alex, other: PEOPLE.jordan, otherProvider: "outlook" },
  { provider: "outlook", owner: PEOPLE.casey, other: PEOPLE.sam, otherProvider: "gmail" },
];

/**
 * A real server on PGlite with the emulator for the enclosing describe block, with `env` set:
 * started in beforeAll, closed in afterAll, the emulator's faults reset after each test. Read
 * the fixture through the getter inside tests.
 */
export function emulatorSuite(env: Record<string, string> = {}): () => SyncFixture {
  let fixture: SyncFixture | undefined;
  beforeAll(async () => {
    fixture = await startSyncFixture("pglite", env);
  }, 180_000);
  afterAll(async () => {
    await fixture?.close();
  });
  afterEach(async () => {
    await fixture?.admin("POST", "mail/faults/reset");
  });
  return () => {
    if (!fixture) throw new Error("the emulator suite has not started");
    return fixture;
  };
}
