import { describe, expect, it } from "vitest";
import { correspondentMemories, engineLabel, newestMemories, readAnalysis, readSecurity } from "./ai-api.ts";
import { addChip } from "./chips.ts";

const security = {
  verdict: "suspicious",
  score: 2,
  reasons: [{ code: "spf_fail", severity: "warning", message: "SPF failed." }],
  authentication: { spf: "fail", dkim: "none", dmarc: "none" },
};
const full = {
  urgency: "high",
  sentiment: "neutral",
  summary: "Asks for the budget.",
  category: "work",
  importance: 8,
  keyPoints: ["a", "b"],
  suggestedActions: ["Reply"],
  responseTime: "Today",
  newMemories: [],
  engine: "local",
  version: "1",
  security,
  analysedAt: "2026-01-01T00:00:00Z",
};

describe("addChip (spec section 5)", () => {
  it("trims, refuses blanks and duplicates in any case", () => {
    expect(addChip([], "  ASAP  ")).toEqual(["ASAP"]);
    expect(addChip(["ASAP"], "asap")).toBeNull();
    expect(addChip(["ASAP"], "   ")).toBeNull();
    expect(addChip(["ASAP"], "circle back")).toEqual(["ASAP", "circle back"]);
  });
});

describe("readAnalysis", () => {
  it("reads a stored analysis and clamps importance to 0-10", () => {
    expect(readAnalysis(full)?.importance).toBe(8);
    expect(readAnalysis({ ...full, importance: 14 })?.importance).toBe(10);
    expect(readAnalysis(full)?.security.reasons).toHaveLength(1);
  });
  it("treats missing or skipped analyses as not available, but keeps their security scan", () => {
    expect(readAnalysis(null)).toBeNull();
    const skipped = { category: "newsletter", importance: 2, security, skipped: "ignored_category" };
    expect(readAnalysis(skipped)).toBeNull();
    expect(readSecurity(skipped)?.verdict).toBe("suspicious");
    expect(readSecurity({ security: { verdict: "maybe" } })).toBeNull();
  });
});

describe("engineLabel", () => {
  it("names the local analyzer and a model by its id", () => {
    expect(engineLabel("local")).toBe("Local analyzer");
    expect(engineLabel("openai-compatible:gpt-4o-mini")).toBe("gpt-4o-mini (openai-compatible)");
    expect(engineLabel("local", { from: "openai-compatible:gpt-4o-mini", reason: "timeout" })).toBe(
      "Local analyzer, because the model timed out",
    );
  });
});

describe("newestMemories", () => {
  it("keeps the newest by updatedAt", () => {
    const m = (id: string, updatedAt: string) => ({
      id,
      kind: "fact" as const,
      content: id,
      source: "analysis",
      weight: 1,
      createdAt: updatedAt,
      updatedAt,
    });
    const list = [m("old", "2026-01-01"), m("new", "2026-03-01"), m("mid", "2026-02-01")];
    expect(newestMemories(list, 2).map((x) => x.id)).toEqual(["new", "mid"]);
  });
});

describe("correspondentMemories", () => {
  it("shows what was learnt about correspondents, not writing habits or ignored senders", () => {
    const m = (id: string, kind: "contact" | "fact" | "ignore" | "style", updatedAt: string) => ({
      id,
      kind,
      content: id,
      source: "analysis",
      weight: 1,
      createdAt: updatedAt,
      updatedAt,
    });
    const list = [
      m("ignored", "ignore", "2026-03-05"),
      m("style", "style", "2026-03-04"),
      m("reply", "contact", "2026-03-03"),
      m("fact", "fact", "2026-03-02"),
      m("older", "contact", "2026-01-01"),
    ];
    expect(correspondentMemories(list, 2).map((x) => x.id)).toEqual(["reply", "fact"]);
  });
});
