import { describe, expect, it } from "vitest";
import { CALLBACK_MESSAGES, hasCallbackParams, planCallback } from "./callback-params.ts";
import { connectFailedMessage, providerFromState } from "./providers.ts";

describe("planCallback", () => {
  it("treats an error parameter as cancelled, even beside a code", () => {
    expect(planCallback("?error=access_denied&state=gmail.x")).toEqual({
      kind: "error",
      message: "Authentication was cancelled or failed",
    });
    expect(planCallback("?code=c&error=x").kind).toBe("error");
  });

  it("needs either the success/sessionToken form or a code", () => {
    expect(planCallback("")).toEqual({ kind: "error", message: "No authorization code received" });
    expect(planCallback("?state=gmail.abc")).toEqual({ kind: "error", message: CALLBACK_MESSAGES.noCode });
    // success without a token is not the redirect form
    expect(planCallback("?success=true&provider=gmail").kind).toBe("error");
    expect(planCallback("?success=false&sessionToken=t").kind).toBe("error");
  });

  it("takes the server-redirect form", () => {
    expect(planCallback("?success=true&sessionToken=tok123&provider=outlook")).toEqual({
      kind: "handoff",
      handoff: "tok123",
      provider: "outlook",
    });
    expect(planCallback("?success=true&sessionToken=tok").kind).toBe("handoff");
  });

  it("exchanges a code, provider from the state", () => {
    expect(planCallback("?code=abc&state=outlook.r4nd0m")).toEqual({
      kind: "exchange",
      provider: "outlook",
      code: "abc",
      state: "outlook.r4nd0m",
    });
    expect(planCallback("?code=abc&state=gmail.r4nd0m")).toMatchObject({ provider: "gmail" });
    expect(planCallback("?code=abc")).toMatchObject({ provider: "gmail", state: "" });
  });

  it("knows when the address must be cleaned", () => {
    expect(hasCallbackParams("?sessionToken=x")).toBe(true);
    expect(hasCallbackParams("?code=x&state=y")).toBe(true);
    expect(hasCallbackParams("")).toBe(false);
    expect(hasCallbackParams("?utm=1")).toBe(false);
  });
});

describe("providers", () => {
  it("is outlook only when the state says so", () => {
    expect(providerFromState("outlook.abc")).toBe("outlook");
    expect(providerFromState("xoutlooky")).toBe("outlook");
    expect(providerFromState("gmail.abc")).toBe("gmail");
    expect(providerFromState(null)).toBe("gmail");
    expect(providerFromState("")).toBe("gmail");
  });

  it("names the provider in the failure alert", () => {
    expect(connectFailedMessage("gmail")).toBe("Failed to connect to Gmail. Please try again.");
    expect(connectFailedMessage("outlook")).toBe("Failed to connect to Outlook. Please try again.");
  });
});
