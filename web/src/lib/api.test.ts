import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_MESSAGES } from "../../../contract/auth.ts";
import { ApiError, apiRequest, responseError, setUnauthorizedHandler } from "./api.ts";
import { forgetAnswers } from "./etag-memory.ts";
import { AUTH_FAILURE_REASON_KEY, SESSION_TOKEN_KEY } from "./storage-keys.ts";

/** Just enough of the browser for the API client: storage, events and fetch. */
function fakeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const invalidated = () => json(401, { error: { code: "session_expired", message: "Session invalidated" } });

describe("the API client's session handling (a token replaced mid-flight, raw responses)", () => {
  let signedOut: string[];
  beforeEach(() => {
    vi.stubGlobal("localStorage", fakeStorage());
    vi.stubGlobal("sessionStorage", fakeStorage());
    vi.stubGlobal("window", { dispatchEvent: () => true });
    signedOut = [];
    setUnauthorizedHandler((reason) => signedOut.push(reason));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("asks once more with the new token instead of signing out", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "old-token");
    const seen: Array<string | null> = [];
    vi.stubGlobal("fetch", async (_path: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization ?? null;
      seen.push(auth);
      if (auth === "Bearer old-token") {
        // Linking finished in the popup while this call was on its way.
        localStorage.setItem(SESSION_TOKEN_KEY, "new-token");
        return invalidated();
      }
      return json(200, { ok: true });
    });
    await expect(apiRequest("GET", "/api/sync/status")).resolves.toEqual({ ok: true });
    expect(seen).toEqual(["Bearer old-token", "Bearer new-token"]);
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBe("new-token");
    expect(signedOut).toEqual([]);
  });

  it("signs out when the token it sent is still the stored one", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "old-token");
    let calls = 0;
    vi.stubGlobal("fetch", async () => {
      calls += 1;
      return invalidated();
    });
    await expect(apiRequest("GET", "/api/accounts")).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(signedOut).toEqual(["session_expired"]);
  });

  it("keeps an ended session's reason when later calls, sent without a token, come back unauthorized", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "old-token");
    vi.stubGlobal("fetch", async (_path: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      return auth
        ? invalidated()
        : json(401, { error: { code: "unauthorized", message: SESSION_MESSAGES.missing } });
    });
    await expect(apiRequest("GET", "/api/emails")).rejects.toBeInstanceOf(ApiError);
    // The dashboard's other queries were still mounted and asked again, now without a token.
    await expect(apiRequest("GET", "/api/stats")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.getItem(AUTH_FAILURE_REASON_KEY)).toBe("session_expired");
    expect(signedOut).toEqual(["session_expired", "auth_required"]);
    // With no session ended before, a call without a token is just that.
    sessionStorage.clear();
    await expect(apiRequest("GET", "/api/stats")).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.getItem(AUTH_FAILURE_REASON_KEY)).toBe("auth_required");
  });

  it("keeps an ended session's reason when calls sent before it ended come back cut short", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "old-token");
    let release = () => {};
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    vi.stubGlobal("fetch", async () => {
      calls += 1;
      if (calls === 1) return json(401, { error: { code: "session_expired", message: "Session expired" } });
      await later;
      // The sign-out cancelled this call: its body can no longer be read.
      const cut = new Response(null, { status: 401 });
      Object.defineProperty(cut, "text", { value: () => Promise.reject(new Error("aborted")) });
      return cut;
    });
    // Both set out with the token, as the dashboard's queries do.
    const first = apiRequest("GET", "/api/emails");
    const second = apiRequest("GET", "/api/emails/stats");
    await expect(first).rejects.toBeInstanceOf(ApiError);
    release();
    await expect(second).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.getItem(AUTH_FAILURE_REASON_KEY)).toBe("session_expired");
  });

  it("gives raw-response callers (the data export) the same 401 handling and error text", async () => {
    localStorage.setItem(SESSION_TOKEN_KEY, "old-token");
    const expired = await responseError(invalidated());
    expect(expired).toMatchObject({ status: 401, message: "Session invalidated" });
    expect(localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(AUTH_FAILURE_REASON_KEY)).toBe("session_expired");
    expect(signedOut).toEqual(["session_expired"]);
    const refused = await responseError(json(429, { error: { code: "rate_limited", message: "Slow down" } }));
    expect(refused).toMatchObject({ status: 429, code: "rate_limited", message: "Slow down" });
    expect(signedOut).toEqual(["session_expired"]);
  });
});

describe("the API client's ETag memory (304 answers give back the kept data)", () => {
  beforeEach(() => {
    vi.stubGlobal("localStorage", fakeStorage());
    vi.stubGlobal("sessionStorage", fakeStorage());
    vi.stubGlobal("window", { dispatchEvent: () => true });
    localStorage.setItem(SESSION_TOKEN_KEY, "token-a");
    forgetAnswers();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A server that answers 304 when If-None-Match names its current ETag. */
  function server(state: { etag: string; body: unknown }) {
    const sent: Array<string | undefined> = [];
    vi.stubGlobal("fetch", async (_path: string, init: RequestInit) => {
      const condition = (init.headers as Record<string, string>)["If-None-Match"];
      sent.push(condition);
      if (condition === state.etag) return new Response(null, { status: 304, headers: { etag: state.etag } });
      return new Response(JSON.stringify(state.body), {
        status: 200,
        headers: { "content-type": "application/json", etag: state.etag },
      });
    });
    return sent;
  }

  it("sends the kept ETag and returns the same data on 304; a changed answer replaces it", async () => {
    const state = { etag: '"v1"', body: { emails: [{ id: "1" }] } };
    const sent = server(state);
    const first = await apiRequest("GET", "/api/emails?limit=50");
    const again = await apiRequest("GET", "/api/emails?limit=50");
    expect(again).toBe(first);
    state.etag = '"v2"';
    state.body = { emails: [{ id: "2" }] };
    await expect(apiRequest("GET", "/api/emails?limit=50")).resolves.toEqual({ emails: [{ id: "2" }] });
    expect(sent).toEqual([undefined, '"v1"', '"v1"']);
  });

  it("never sends a condition for a write, nor another session's ETag", async () => {
    const sent = server({ etag: '"v1"', body: { ok: true } });
    await apiRequest("GET", "/api/emails/stats");
    await apiRequest("PATCH", "/api/emails/stats", { isRead: true });
    localStorage.setItem(SESSION_TOKEN_KEY, "token-b");
    await apiRequest("GET", "/api/emails/stats");
    expect(sent).toEqual([undefined, undefined, undefined]);
  });

  it("forgets every kept answer at sign-out", async () => {
    const sent = server({ etag: '"v1"', body: { ok: true } });
    await apiRequest("GET", "/api/emails/stats");
    forgetAnswers();
    await apiRequest("GET", "/api/emails/stats");
    expect(sent).toEqual([undefined, undefined]);
  });
});
