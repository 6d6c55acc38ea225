import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { loadVapidKeys } from "./vapid-keys.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("VAPID keys", () => {
  it("are generated once into DATA_DIR, owner-only, and the same pair is read by every later start", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "mailwise-vapid-"));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, DEMO_MODE: "off" });
    const [first, second] = await Promise.all([loadVapidKeys(config), loadVapidKeys(config)]);
    expect(first).toEqual(second);
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(await loadVapidKeys(config)).toEqual(first);
    expect((await stat(path.join(dataDir, "vapid.json"))).mode & 0o777).toBe(0o600);
  });

  it("come from the environment when set, both or neither", async () => {
    const pair = {
      VAPID_PUBLIC_KEY:
        "BE1YlG45sHZEwKKNYrR_C7Xwp66CrHBXIpTSszxmkgPtkIssSMMVtyYK9bAI-P8_oIVhGeO9VDH9tX-W8SIyo1I",
      VAPID_PRIVATE_KEY: "rFbV5wtcW7jmg69MAHaiJOmDTMyjwC5N79cmUsvibnw",
    };
    const config = loadConfig({ ...pair, DATA_DIR: "/nonexistent", DEMO_MODE: "off" });
    expect(await loadVapidKeys(config)).toEqual({
      publicKey: pair.VAPID_PUBLIC_KEY,
      privateKey: pair.VAPID_PRIVATE_KEY,
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.VAPID_PUBLIC_KEY })).toThrow(ConfigError);
    expect(() => loadConfig({ ...pair, VAPID_SUBJECT: "http://example.com" })).toThrow(ConfigError);
  });

  it("push endpoints may name the emulator's host only when the emulator stands in for providers", () => {
    expect(loadConfig({ DEMO_MODE: "off" }).notifications.pushAllowHosts).toEqual([]);
    expect(loadConfig({ DEMO_MODE: "on", EMULATOR_PORT: "4999" }).notifications.pushAllowHosts).toEqual([
      "127.0.0.1:4999",
    ]);
    expect(
      loadConfig({ DEMO_MODE: "off", PUSH_ALLOW_HOSTS: "push.local:8443, other:1" }).notifications
        .pushAllowHosts,
    ).toEqual(["push.local:8443", "other:1"]);
  });
});
