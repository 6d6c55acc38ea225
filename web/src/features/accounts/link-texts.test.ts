import { describe, expect, it } from "vitest";
import { linkQuestion, providerAccount } from "./link-texts.ts";

describe("link confirmation texts", () => {
  it("put 'an' before Outlook and 'a' before Gmail", () => {
    expect(linkQuestion("outlook")).toBe("Link an Outlook account?");
    expect(linkQuestion("gmail")).toBe("Link a Gmail account?");
    expect(providerAccount("outlook")).toBe("an Outlook account");
  });
});
