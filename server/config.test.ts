import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("defaults to the embedded database, real provider URLs only when credentials are set", () => {
    const c = loadConfig({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(c.database).toEqual({ kind: "pglite", dir: expect.stringMatching(/data\/pglite$/) });
    expect(c.port).toBe(3000);
    expect(c.demo.enabled).toBe(false);
    expect(c.providers.gmail).toBe("https://gmail.googleapis.com");
    expect(c.providers.microsoftLogin).toBe("https://login.microsoftonline.com");
    expect(c.microsoft).toBeUndefined();
  });

  it("without credentials runs in demo mode against the emulator", () => {
    const c = loadConfig({ EMULATOR_PORT: "4999" });
    expect(c.demo).toEqual({ enabled: true, emulatorPort: 4999 });
    expect(c.providers.googleOAuth2).toBe("http://127.0.0.1:4999/oauth2.googleapis.com");
    expect(c.providers.graph).toBe("http://127.0.0.1:4999/graph.microsoft.com");
    expect(c.google?.clientId).toBe("mailwise-demo-google");
  });

  it("switches to PostgreSQL with DATABASE_URL", () => {
    const c = loadConfig({ DATABASE_URL: "postgres://u@db:5432/mail" });
    expect(c.database).toEqual({ kind: "postgres", url: "postgres://u@db:5432/mail" });
  });

  it("fails loudly, naming every bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud" })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x" });
    } catch (err) {
      expect((err as Error).message).toContain("PORT");
      expect((err as Error).message).toContain("DATABASE_URL");
    }
  });

  it("requires client id and secret together", () => {
    expect(() => loadConfig({ MICROSOFT_CLIENT_ID: "only-id" })).toThrow(
      /MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET/,
    );
  });
});
