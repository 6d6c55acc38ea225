import { describe, expect, it } from "vitest";
import type { DueActionAttention } from "../../../../contract/due-actions.ts";
import { failedActionsTitle, waitingActionText } from "./due-actions-texts.ts";

const action = (reason: string | null): DueActionAttention => ({
  id: "00000000-0000-4000-8000-000000000000",
  kind: "send",
  label: "Send “Lunch?” to priya@example.com",
  status: "failed",
  reason,
  runAt: "2026-12-06T08:00:00.000Z",
  attempts: 6,
});

describe("failed scheduled actions, in words", () => {
  it("one: the count and its reason", () => {
    expect(failedActionsTitle([action("Gmail is unavailable")])).toBe(
      "1 scheduled action failed: Gmail is unavailable",
    );
    expect(failedActionsTitle([action(null)])).toBe("1 scheduled action failed: unknown reason");
  });

  it("more: the count, each listed below with its own reason", () => {
    expect(failedActionsTitle([action("a"), action("b")])).toBe("2 scheduled actions failed");
  });

  it("a waiting one asks for the reconnect", () => {
    expect(waitingActionText(action("Reconnect"))).toBe(
      "Send “Lunch?” to priya@example.com is waiting: reconnect your account and it runs.",
    );
  });
});
