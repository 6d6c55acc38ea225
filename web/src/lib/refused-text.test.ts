import { describe, expect, it } from "vitest";
import { refusedText } from "./refused-text.ts";

describe("refusedText", () => {
  it("says the action buttons' words, one email or several", () => {
    expect(refusedText("archive", 1)).toBe("Failed to archive the email");
    expect(refusedText("archive", 3)).toBe("Failed to archive emails");
    expect(refusedText("read", 2)).toBe("Failed to mark emails as read");
    expect(refusedText("unread", 1)).toBe("Failed to mark the email as unread");
    expect(refusedText("unarchive", 1)).toBe("Failed to move the email back to the inbox");
    expect(refusedText("delete", 1)).toBe("Failed to delete the email");
  });
});
