import { describe, expect, it } from "vitest";
import { SESSION_MESSAGES } from "../../../../contract/auth.ts";
import { reasonFor401 } from "../../lib/api.ts";
import { logoutScreenFor, parseAuthFailureReason, sessionToastFor } from "./session-texts.ts";

describe("reasonFor401", () => {
  it("maps the server's 401 messages to reasons", () => {
    expect(reasonFor401(SESSION_MESSAGES.expired)).toBe("session_expired");
    expect(reasonFor401(SESSION_MESSAGES.invalidated)).toBe("session_expired");
    expect(reasonFor401(SESSION_MESSAGES.missing)).toBe("auth_required");
    expect(reasonFor401(SESSION_MESSAGES.invalid)).toBe("token_invalid");
    expect(reasonFor401("Unauthorized")).toBe("token_invalid");
  });
});

describe("parseAuthFailureReason", () => {
  it("defaults to manual", () => {
    expect(parseAuthFailureReason(null)).toBe("manual");
    expect(parseAuthFailureReason("bogus")).toBe("manual");
    expect(parseAuthFailureReason("token_invalid")).toBe("token_invalid");
  });
});

describe("session toasts", () => {
  it("uses the spec's texts", () => {
    expect(sessionToastFor("session_expired")).toEqual({
      title: "Session Expired",
      description: "Your session has expired. Please log in again.",
      variant: "destructive",
    });
    expect(sessionToastFor("token_invalid")).toEqual({
      title: "Authentication Required",
      description: "Your authentication token is invalid. Please log in again.",
    });
    expect(sessionToastFor("manual")).toBeNull();
    expect(sessionToastFor("auth_required")).toBeNull();
  });
});

describe("logout screens", () => {
  it("asks for confirmation on a manual logout", () => {
    expect(logoutScreenFor("manual")).toMatchObject({
      text: "Are you sure you want to log out?",
      confirm: true,
    });
  });

  it("offers Log In Again, and Go to Home except for auth_required", () => {
    expect(logoutScreenFor("session_expired")).toMatchObject({
      text: "Your session has expired for security reasons. Please log in again to continue.",
      confirm: false,
      goHome: true,
    });
    expect(logoutScreenFor("token_invalid")).toMatchObject({
      text: "Your authentication token is no longer valid. Please log in again.",
      goHome: true,
    });
    expect(logoutScreenFor("auth_required")).toMatchObject({
      text: "You need to be logged in to access this feature.",
      goHome: false,
    });
  });
});
