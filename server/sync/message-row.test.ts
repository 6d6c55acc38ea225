import { describe, expect, it } from "vitest";
import type { ProviderMessage } from "../providers/mail-provider.ts";
import { displayText, toEmailRow } from "./message-row.ts";
import { providerMessage } from "./provider-message.fixture.ts";
import type { SyncAccount } from "./types.ts";

const account: SyncAccount = {
  id: "00000000-0000-4000-8000-000000000001",
  userId: "00000000-0000-4000-8000-000000000002",
  provider: "gmail",
  email: "me@example.com",
  displayName: "Me",
};

const message = (overrides: Partial<ProviderMessage>) => providerMessage("m1", overrides);

describe("display text of stored mail", () => {
  it("drops every bidirectional embedding, override and isolate control", () => {
    const controls = [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ];
    for (const c of controls) expect(displayText(`invoice${c}fdp.exe`)).toBe("invoicefdp.exe");
    expect(displayText(null)).toBeNull();
    // Right-to-left text itself is kept: only the invisible controls go.
    expect(displayText("שלום \u202Eabc")).toBe("שלום abc");
  });

  it("a subject, sender name or attachment name cannot pose as another file type", () => {
    const row = toEmailRow(
      account,
      message({
        subject: "Your invoice\u202Efdp.exe",
        from: { name: "Pay\u2067roll\u2069", address: "payroll@example.com" },
        attachments: [{ filename: "invoice\u202Efdp.exe", mimeType: "application/octet-stream", size: 10 }],
      }),
      { generation: 1, aiAnalysis: null, now: new Date() },
    );
    expect(row.subject).toBe("Your invoicefdp.exe");
    expect(row.fromName).toBe("Payroll");
    expect(row.attachments).toEqual([
      { filename: "invoicefdp.exe", mimeType: "application/octet-stream", size: 10 },
    ]);
  });
});
