import { describe, expect, it } from "vitest";
import { ProviderError } from "../../auth/errors.ts";
import { DomainError } from "../../http/errors.ts";
import { classifyGraphError } from "../outlook/errors.ts";
import { createProviderHttp, type TokenSource } from "./client.ts";
import { withProviderDeadline } from "./deadline.ts";
import { ProviderRequestError } from "./errors.ts";

/** A scripted stand-in for fetch: each call takes the next answer (or throws it). */
function scripted(answers: (Response | Error)[]) {
  const calls: { url: string; authorization: string | null }[] = [];
  const fake: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), authorization: new Headers(init?.headers).get("authorization") });
    const next = answers.shift();
    if (next === undefined) throw new Error("unexpected request");
    if (next instanceof Error) throw next;
    return next;
  };
  return { fake, calls };
}

function tokens(): TokenSource & { forced: number } {
  let current = 1;
  const source = Object.assign(
    async (options?: { forceRefresh?: boolean }) => {
      if (options?.forceRefresh) {
        source.forced += 1;
        current += 1;
      }
      return `token-${current}`;
    },
    { forced: 0 },
  );
  return source;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

function client(fake: typeof fetch, token: TokenSource, slept: number[] = []) {
  return createProviderHttp({
    name: "Test",
    token,
    classify: classifyGraphError,
    fetch: fake,
    retry: {
      sleep: async (ms) => void slept.push(ms),
      random: () => 0.5,
      baseDelayMs: 100,
      maxDelayMs: 1000,
    },
  });
}

describe("createProviderHttp", () => {
  it("under a passed deadline: the request in flight is abandoned and no retry is sent", async () => {
    const calls: string[] = [];
    // Hangs until aborted, as a provider that never answers.
    const hanging: typeof fetch = (input, init) => {
      calls.push(String(input));
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    };
    const slept: number[] = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("deadline")), 20);
    const failed = await withProviderDeadline(controller.signal, () =>
      client(hanging, tokens(), slept).request({ method: "POST", url: "https://api.test/write" }),
    ).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ProviderRequestError);
    expect(calls).toHaveLength(1);
    expect(slept).toEqual([]);
    // Nothing starts once the deadline has passed.
    const late = await withProviderDeadline(controller.signal, () =>
      client(hanging, tokens()).request({ method: "POST", url: "https://api.test/write" }),
    ).catch((err: unknown) => err);
    expect(late).toBeInstanceOf(ProviderRequestError);
    expect(calls).toHaveLength(1);
  });

  it("refreshes once on 401 and retries with the new token", async () => {
    const { fake, calls } = scripted([json(401, {}), json(200, { ok: true })]);
    const token = tokens();
    expect(await client(fake, token).json({ method: "GET", url: "https://api.test/x" })).toEqual({
      ok: true,
    });
    expect(token.forced).toBe(1);
    expect(calls.map((c) => c.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);
  });

  it("gives up with reauth when the refreshed token is refused too", async () => {
    const { fake } = scripted([json(401, {}), json(401, {})]);
    await expect(
      client(fake, tokens()).request({ method: "GET", url: "https://api.test/x" }),
    ).rejects.toMatchObject({
      kind: "reauth",
      status: 401,
    });
  });

  it("honours Retry-After, then succeeds", async () => {
    const slept: number[] = [];
    const { fake } = scripted([
      json(429, { error: { code: "TooManyRequests" } }, { "retry-after": "2" }),
      json(200, { n: 1 }),
    ]);
    expect(await client(fake, tokens(), slept).json({ method: "GET", url: "https://api.test/x" })).toEqual({
      n: 1,
    });
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(2000);
    expect(slept[0]).toBeLessThan(2300);
  });

  it("retries network failures and timeouts 3 times, then throws a transient ProviderError", async () => {
    const timeout = Object.assign(new Error("timed out"), { name: "TimeoutError" });
    const { fake, calls } = scripted([new TypeError("fetch failed"), timeout, json(502, {})]);
    const failure = await client(fake, tokens())
      .request({ method: "GET", url: "https://api.test/x" })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderRequestError);
    expect((failure as ProviderRequestError).kind).toBe("transient");
    expect(calls).toHaveLength(3);
  });

  it("does not sleep through a delay longer than the inline limit: the job layer reschedules", async () => {
    const slept: number[] = [];
    const { fake, calls } = scripted([json(429, {}, { "retry-after": "600" })]);
    const failure = await client(fake, tokens(), slept)
      .request({ method: "GET", url: "https://api.test/x" })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "rate_limit", retryAfterMs: 600_000 });
    expect(slept).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("does not retry permanent failures", async () => {
    const { fake, calls } = scripted([json(400, { error: { code: "BadRequest" } })]);
    await expect(
      client(fake, tokens()).request({ method: "GET", url: "https://api.test/x" }),
    ).rejects.toMatchObject({
      kind: "permanent",
    });
    expect(calls).toHaveLength(1);
  });

  it("turns the token service's DomainError into the ProviderError it carries", async () => {
    const reauth = new DomainError("provider_reauth_required", "reconnect");
    reauth.cause = new ProviderError("reauth", "invalid_grant");
    const { fake, calls } = scripted([]);
    const failing: TokenSource = async () => {
      throw reauth;
    };
    await expect(
      client(fake, failing).request({ method: "GET", url: "https://api.test/x" }),
    ).rejects.toMatchObject({
      kind: "reauth",
    });
    expect(calls).toHaveLength(0);
  });
});
