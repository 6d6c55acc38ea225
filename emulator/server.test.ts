import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEmulator, emulatorControl } from "./server.ts";

describe("buildEmulator", () => {
  const app = buildEmulator({
    clients: [{ provider: "google", clientId: "g", clientSecret: "s", redirectUris: ["http://app.test/cb"] }],
    identities: [{ provider: "google", email: "extra@gmail.com", name: "Extra Person" }],
    publicUrl: "http://emu.test/",
  });
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  it("uses the configured public URL in discovery", async () => {
    const response = await app.inject({ url: "/accounts.google.com/.well-known/openid-configuration" });
    expect(response.json()).toMatchObject({ issuer: "http://emu.test/accounts.google.com" });
  });

  it("keeps identities given as options across reset", () => {
    const control = emulatorControl(app);
    control.reset();
    expect(control.listIdentities("google").map((identity) => identity.email)).toContain("extra@gmail.com");
  });

  it("answers unknown paths with 404 in the service's shape", async () => {
    const graph = await app.inject({ url: "/graph.microsoft.com/v1.0/nothing" });
    expect(graph.statusCode).toBe(404);
    expect(graph.json()).toMatchObject({ error: { code: "BadRequest" } });
    const other = await app.inject({ url: "/nowhere" });
    expect(other.statusCode).toBe(404);
  });

  it("serves an index page and SVG avatars", async () => {
    const index = await app.inject({ url: "/" });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain("alex.morgan@gmail.com");
    const avatar = await app.inject({ url: "/lh3.googleusercontent.com/a/108214679530458627391=s96-c" });
    expect(avatar.headers["content-type"]).toBe("image/svg+xml");
    expect(avatar.body).toContain(">AM<");
  });

  it("rejects invalid client registrations at build time", () => {
    expect(() =>
      buildEmulator({
        clients: [{ provider: "google", clientId: "g", clientSecret: "s", redirectUris: ["not a url"] }],
      }),
    ).toThrow();
  });
});
