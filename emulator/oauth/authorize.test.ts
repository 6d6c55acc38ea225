import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../server.ts";
import {
  authorizeUrl,
  hiddenField,
  identityButtonValue,
  pkcePair,
  postToken,
  signIn,
  startTestEmulator,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "../test-support.ts";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const { challenge } = pkcePair();

function googleParams(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const params: Record<string, string | undefined> = {
    client_id: TEST_CLIENTS.google.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: "code",
    scope: "openid email https://www.googleapis.com/auth/gmail.modify",
    state: "s1",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function microsoftParams(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  return googleParams({
    client_id: TEST_CLIENTS.microsoft.clientId,
    scope: "openid offline_access User.Read Mail.ReadWrite",
    ...overrides,
  });
}

async function open(url: string) {
  const response = await fetch(url, { redirect: "manual" });
  return { response, html: await response.text() };
}

async function submit(url: string, fields: Record<string, string>) {
  const response = await fetch(url.split("?")[0] ?? url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { response, html: await response.text() };
}

describe("authorize error pages", () => {
  it("shows Google's 400 redirect_uri_mismatch page and never redirects to the unregistered URI", async () => {
    const evil = 'https://evil.example/cb?x="><script>alert(1)</script>';
    const { response, html } = await open(
      authorizeUrl(emu.url, "google", googleParams({ redirect_uri: evil })),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("Error 400: redirect_uri_mismatch");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });

  it("rejects a redirect_uri that only differs by a trailing slash", async () => {
    const { response } = await open(
      authorizeUrl(emu.url, "google", googleParams({ redirect_uri: `${TEST_REDIRECT_URI}/` })),
    );
    expect(response.status).toBe(400);
  });

  it("shows a 400 page without response_type=code", async () => {
    for (const responseType of [undefined, "token"]) {
      const { response, html } = await open(
        authorizeUrl(emu.url, "google", googleParams({ response_type: responseType })),
      );
      expect(response.status).toBe(400);
      expect(html).toContain("unsupported_response_type");
    }
    const ms = await open(authorizeUrl(emu.url, "microsoft", microsoftParams({ response_type: undefined })));
    expect(ms.response.status).toBe(400);
  });

  it("shows a 400 page without client_id and an error page for an unknown client", async () => {
    expect(
      (await open(authorizeUrl(emu.url, "google", googleParams({ client_id: undefined })))).response.status,
    ).toBe(400);
    const google = await open(authorizeUrl(emu.url, "google", googleParams({ client_id: "nobody" })));
    expect(google.response.status).toBe(401);
    expect(google.html).toContain("invalid_client");
    const ms = await open(authorizeUrl(emu.url, "microsoft", microsoftParams({ client_id: "nobody" })));
    expect(ms.response.status).toBe(400);
    expect(ms.html).toContain("AADSTS700016");
  });

  it("requires PKCE: Google shows a page, Microsoft redirects with invalid_request", async () => {
    const google = await open(authorizeUrl(emu.url, "google", googleParams({ code_challenge: undefined })));
    expect(google.response.status).toBe(400);
    const ms = await open(authorizeUrl(emu.url, "microsoft", microsoftParams({ code_challenge: undefined })));
    expect(ms.response.status).toBe(302);
    const location = new URL(ms.response.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/^AADSTS/);
    expect(location.searchParams.get("state")).toBe("s1");
  });

  it("rejects unknown Google scopes", async () => {
    const { response, html } = await open(
      authorizeUrl(
        emu.url,
        "google",
        googleParams({ scope: "openid https://www.googleapis.com/auth/gmail.everything" }),
      ),
    );
    expect(response.status).toBe(400);
    expect(html).toContain("invalid_scope");
  });

  it("answers prompt=none with login_required, since the emulator keeps no session", async () => {
    const { response } = await open(authorizeUrl(emu.url, "google", googleParams({ prompt: "none" })));
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("login_required");
  });

  it("rejects a tampered flow", async () => {
    const { html } = await open(authorizeUrl(emu.url, "google", googleParams()));
    const flow = hiddenField(html, "flow");
    const tampered = `${flow.slice(0, 10)}A${flow.slice(11)}`;
    const url = authorizeUrl(emu.url, "google", {});
    const result = await submit(url, { flow: tampered, identity: "108214679530458627391" });
    expect(result.response.status).toBe(400);
  });
});

describe("account chooser and consent", () => {
  it("lists the provider's demo identities as buttons named by email, with no COOP header", async () => {
    const { response, html } = await open(authorizeUrl(emu.url, "google", googleParams()));
    expect(response.status).toBe(200);
    expect(response.headers.get("cross-origin-opener-policy")).toBeNull();
    for (const email of ["alex.morgan@gmail.com", "priya.shah@gmail.com", "sam.taylor@gmail.com"]) {
      expect(identityButtonValue(html, email)).toEqual(expect.any(String));
    }
    expect(html).not.toContain("jordan.lee@outlook.com");
    expect(html).not.toMatch(/<script|<link|src="http/);
  });

  it("shows a consent screen naming the app and listing the scopes in words", async () => {
    const url = authorizeUrl(emu.url, "google", googleParams());
    const chooser = await open(url);
    const consent = await submit(url, {
      flow: hiddenField(chooser.html, "flow"),
      identity: identityButtonValue(chooser.html, "sam.taylor@gmail.com"),
    });
    expect(consent.response.status).toBe(200);
    expect(consent.response.headers.get("cross-origin-opener-policy")).toBeNull();
    expect(consent.html).toContain("Mailwise Test wants access to your Google Account");
    expect(consent.html).toContain("sam.taylor@gmail.com");
    expect(consent.html).toContain("<li>See your primary Google Account email address</li>");
    expect(consent.html).toContain("<li>Read, compose, and send emails from your Gmail account</li>");
    expect(consent.html).toMatch(/<button type="submit" name="decision" value="allow"[^>]*>Allow<\/button>/);
    expect(consent.html).toMatch(
      /<button type="submit" name="decision" value="cancel"[^>]*>Cancel<\/button>/,
    );
  });

  it("preselects the login_hint identity", async () => {
    const { html } = await open(
      authorizeUrl(emu.url, "google", googleParams({ login_hint: "priya.shah@gmail.com" })),
    );
    const first = /<button type="submit" name="identity"[^>]*>[\s\S]*?<\/button>/.exec(html)?.[0] ?? "";
    expect(first).toContain("priya.shah@gmail.com");
    expect(first).toContain("autofocus");
  });

  it("redirects Cancel to the app with access_denied and the state", async () => {
    const google = await signIn(authorizeUrl(emu.url, "google", googleParams()), {
      email: "alex.morgan@gmail.com",
      decision: "cancel",
    });
    expect(`${google.origin}${google.pathname}`).toBe(TEST_REDIRECT_URI);
    expect(google.searchParams.get("error")).toBe("access_denied");
    expect(google.searchParams.get("state")).toBe("s1");
    expect(google.searchParams.get("code")).toBeNull();

    const ms = await signIn(authorizeUrl(emu.url, "microsoft", microsoftParams()), {
      email: "casey.kim@outlook.com",
      decision: "cancel",
    });
    expect(ms.searchParams.get("error")).toBe("access_denied");
    expect(ms.searchParams.get("error_description")).toMatch(/^AADSTS65004/);
    expect(ms.searchParams.get("state")).toBe("s1");
  });

  it("keeps parallel sign-ins apart: each code belongs to the account chosen in its own flow", async () => {
    const pkceA = pkcePair();
    const pkceB = pkcePair();
    const urlA = authorizeUrl(emu.url, "google", googleParams({ code_challenge: pkceA.challenge }));
    const urlB = authorizeUrl(emu.url, "google", googleParams({ code_challenge: pkceB.challenge }));
    const [chooserA, chooserB] = await Promise.all([open(urlA), open(urlB)]);
    const consentA = await submit(urlA, {
      flow: hiddenField(chooserA.html, "flow"),
      identity: identityButtonValue(chooserA.html, "alex.morgan@gmail.com"),
    });
    const consentB = await submit(urlB, {
      flow: hiddenField(chooserB.html, "flow"),
      identity: identityButtonValue(chooserB.html, "sam.taylor@gmail.com"),
    });
    const allowB = await submit(urlB, { flow: hiddenField(consentB.html, "flow"), decision: "allow" });
    const allowA = await submit(urlA, { flow: hiddenField(consentA.html, "flow"), decision: "allow" });

    const subs: string[] = [];
    for (const [allow, verifier] of [
      [allowA, pkceA.verifier],
      [allowB, pkceB.verifier],
    ] as const) {
      const code = new URL(allow.response.headers.get("location") ?? "").searchParams.get("code") ?? "";
      const token = await postToken(tokenUrl(emu.url, "google"), {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: TEST_REDIRECT_URI,
        client_id: TEST_CLIENTS.google.clientId,
        client_secret: TEST_CLIENTS.google.clientSecret,
      });
      const info = await fetch(`${emu.url}/openidconnect.googleapis.com/v1/userinfo`, {
        headers: { authorization: `Bearer ${str(token.body, "access_token")}` },
      });
      subs.push(str((await info.json()) as Record<string, unknown>, "email"));
    }
    expect(subs).toEqual(["alex.morgan@gmail.com", "sam.taylor@gmail.com"]);
  });

  it("verifies a plain code challenge when the app sends one", async () => {
    const verifier = "p".repeat(50);
    const redirect = await signIn(
      authorizeUrl(
        emu.url,
        "google",
        googleParams({ code_challenge: verifier, code_challenge_method: undefined }),
      ),
      { email: "alex.morgan@gmail.com" },
    );
    const fields = {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code") ?? "",
      redirect_uri: TEST_REDIRECT_URI,
      client_id: TEST_CLIENTS.google.clientId,
      client_secret: TEST_CLIENTS.google.clientSecret,
    };
    expect(
      (await postToken(tokenUrl(emu.url, "google"), { ...fields, code_verifier: verifier })).status,
    ).toBe(200);
  });
});
