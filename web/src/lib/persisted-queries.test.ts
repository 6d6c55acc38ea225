import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "../../../contract/auth.ts";
import type { Email, EmailListResponse } from "../../../contract/mail.ts";
import { ApiError, apiRequest, isOfflineError, setUnauthorizedHandler } from "./api.ts";
import { isOffline, OFFLINE_MESSAGE, reportAnswer } from "./connectivity.ts";
import { persistQueries, restorePersistedQueries } from "./persisted-queries.ts";
import { clearSessionToken } from "./session.tsx";
import { OFFLINE_INBOX_KEY, SESSION_TOKEN_KEY } from "./storage-keys.ts";

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

const user = { id: "u1", email: "robin@example.com", name: "Robin", accounts: [] } as unknown as SessionUser;
const row = (id: string) =>
  ({ id, subject: `Mail ${id}`, bodyHtml: null, bodyText: null }) as unknown as Email;
const page = (ids: string[]): EmailListResponse => ({ emails: ids.map(row), nextCursor: "next" });
const pages = (ids: string[]) => ({ pages: [page(ids), page(["older"])], pageParams: [null, "next"] });

describe("the last loaded inbox kept for offline (issue 38)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("localStorage", fakeStorage());
    vi.stubGlobal("sessionStorage", fakeStorage());
    vi.stubGlobal("window", { dispatchEvent: () => true });
    localStorage.setItem(SESSION_TOKEN_KEY, "token-a");
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function signedInTab(): QueryClient {
    const client = new QueryClient();
    persistQueries(client);
    client.setQueryData(["/api/auth/session", "token-a"], { user });
    client.setQueryData(["/api/emails", "list", { limit: 100, view: "conversations" }], pages(["a", "b"]));
    // A search and a bucket card are not the inbox: not kept.
    client.setQueryData(["/api/emails", "list", { limit: 100, q: "invoice" }], pages(["s"]));
    client.setQueryData(["/api/emails", "list", { bucket: "important", limit: 3 }], pages(["i"]));
    vi.advanceTimersByTime(1000);
    return client;
  }

  it("keeps the session and the inbox's first page, and a new tab opens with them, already stale", () => {
    signedInTab();
    const saved = JSON.parse(localStorage.getItem(OFFLINE_INBOX_KEY) ?? "null");
    expect(saved.inbox.params).toEqual({ limit: 100, view: "conversations" });
    expect(saved.inbox.page.emails.map((e: Email) => e.id)).toEqual(["a", "b"]);
    expect(JSON.stringify(saved)).not.toContain("token-a");

    const next = new QueryClient();
    restorePersistedQueries(next);
    expect(next.getQueryData(["/api/auth/session", "token-a"])).toEqual({ user });
    const inbox = next.getQueryState(["/api/emails", "list", { limit: 100, view: "conversations" }]);
    expect((inbox?.data as ReturnType<typeof pages> | undefined)?.pages).toHaveLength(1);
    expect(next.getQueryData(["/api/emails", "list", { limit: 100, q: "invoice" }])).toBeUndefined();
    // Online, both are read again as the page mounts: nothing old stays on screen.
    expect(
      next
        .getQueryCache()
        .find({ queryKey: ["/api/auth/session", "token-a"] })
        ?.isStaleByTime(5 * 60_000),
    ).toBe(true);
  });

  it("follows an archive: the kept inbox is rewritten a second after the cache changes", () => {
    const client = signedInTab();
    const key = ["/api/emails", "list", { limit: 100, view: "conversations" }];
    client.setQueryData(key, pages(["b"]));
    vi.advanceTimersByTime(1000);
    const saved = JSON.parse(localStorage.getItem(OFFLINE_INBOX_KEY) ?? "null");
    expect(saved.inbox.page.emails.map((e: Email) => e.id)).toEqual(["b"]);
  });

  it("is never shown to another token, and sign-out removes it", () => {
    signedInTab();
    localStorage.setItem(SESSION_TOKEN_KEY, "token-b");
    const other = new QueryClient();
    restorePersistedQueries(other);
    expect(other.getQueryCache().getAll()).toHaveLength(0);
    expect(localStorage.getItem(OFFLINE_INBOX_KEY)).toBeNull();

    localStorage.setItem(SESSION_TOKEN_KEY, "token-a");
    signedInTab();
    expect(localStorage.getItem(OFFLINE_INBOX_KEY)).not.toBeNull();
    clearSessionToken();
    expect(localStorage.getItem(OFFLINE_INBOX_KEY)).toBeNull();
  });

  it("a 401 removes it too", async () => {
    setUnauthorizedHandler(() => undefined);
    signedInTab();
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: "session_expired", message: "Session expired" } }), {
            status: 401,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
    await expect(apiRequest("GET", "/api/emails")).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem(OFFLINE_INBOX_KEY)).toBeNull();
  });
});

describe("actions offline are refused, not queued (issue 38)", () => {
  beforeEach(() => {
    vi.stubGlobal("localStorage", fakeStorage());
    vi.stubGlobal("window", { dispatchEvent: () => true });
  });
  afterEach(() => {
    reportAnswer();
    vi.unstubAllGlobals();
  });

  it("a change asked for with the browser offline is not sent and says why", async () => {
    vi.stubGlobal("navigator", { onLine: false });
    const fetchSpy = vi.fn(async () => new Response("{}"));
    vi.stubGlobal("fetch", fetchSpy);
    const error = await apiRequest("PATCH", "/api/emails/1", { isArchived: true }).catch((e: unknown) => e);
    expect(isOfflineError(error)).toBe(true);
    expect((error as Error).message).toBe(OFFLINE_MESSAGE);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("a change that gets no answer at all reads as offline; the next answer ends it", async () => {
    vi.stubGlobal("navigator", { onLine: true });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const error = await apiRequest("POST", "/api/emails/bulk-action", {}).catch((e: unknown) => e);
    expect(isOfflineError(error)).toBe(true);
    expect(isOffline()).toBe(true);
    // A read keeps its own error (queries keep their cached data).
    await expect(apiRequest("GET", "/api/emails")).rejects.toBeInstanceOf(TypeError);

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("{}", { headers: { "content-type": "application/json" } })),
    );
    await apiRequest("GET", "/api/emails");
    expect(isOffline()).toBe(false);
  });

  it("an aborted read is not a network failure", async () => {
    vi.stubGlobal("navigator", { onLine: true });
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new DOMException("aborted", "AbortError");
      }),
    );
    await expect(
      apiRequest("GET", "/api/emails", undefined, { signal: controller.signal }),
    ).rejects.toThrow();
    expect(isOffline()).toBe(false);
  });
});
