import { describe, expect, it } from "vitest";
import { DEFAULT_REDIRECT_URIS, readEmulatorEnv } from "./env.ts";

describe("readEmulatorEnv", () => {
  it("defaults to 127.0.0.1:4010, admin off and the demo clients", () => {
    const config = readEmulatorEnv({});
    expect(config).toMatchObject({ port: 4010, host: "127.0.0.1", admin: false });
    expect(config.clients.map((client) => client.clientId)).toEqual([
      "mailwise-demo-google",
      "mailwise-demo-microsoft",
    ]);
    expect(config.clients[0]?.redirectUris).toEqual(DEFAULT_REDIRECT_URIS);
  });

  it("reads redirect URIs, admin and port", () => {
    const config = readEmulatorEnv({
      EMULATOR_PORT: "5000",
      EMULATOR_ADMIN: "1",
      EMULATOR_REDIRECT_URIS: "http://a.test/cb, http://b.test/cb",
    });
    expect(config.port).toBe(5000);
    expect(config.admin).toBe(true);
    expect(config.clients[1]?.redirectUris).toEqual(["http://a.test/cb", "http://b.test/cb"]);
  });

  it("takes clients from EMULATOR_CLIENTS_JSON and fails loudly on bad JSON", () => {
    const clients = [
      { provider: "google", clientId: "c", clientSecret: "s", redirectUris: ["http://x.test/cb"] },
    ];
    expect(readEmulatorEnv({ EMULATOR_CLIENTS_JSON: JSON.stringify(clients) }).clients).toEqual(clients);
    expect(() => readEmulatorEnv({ EMULATOR_CLIENTS_JSON: "{" })).toThrow(/EMULATOR_CLIENTS_JSON/);
    expect(() => readEmulatorEnv({ EMULATOR_CLIENTS_JSON: '[{"provider":"yahoo"}]' })).toThrow(
      /EMULATOR_CLIENTS_JSON/,
    );
    expect(() => readEmulatorEnv({ EMULATOR_PORT: "eighty" })).toThrow();
  });
});
