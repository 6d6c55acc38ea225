import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  agentInsightsSchema,
  agentReplyResponseSchema,
  agentSchema,
  composeSuggestionsResponseSchema,
  emailAnalysisSchema,
  improveTextResponseSchema,
  memoryListSchema,
} from "../../contract/ai.ts";
import { emails } from "../db/schema.ts";
import { apiSuite } from "../test/api-suite.ts";
import { BACKENDS } from "../test/databases.ts";
import { createEmail, signedInUser } from "../test/factories.ts";

const PREFS = {
  email_signature: "Dana Whitfield\nAcme Corp",
  tone_preference: "Formal",
  reply_style: "",
  forbidden_phrases: ["circle back", "per my last email"],
  vip_contacts: ["boss@acme.com"],
  email_behavior: {
    ignore_categories: ["Newsletters"],
    auto_draft: true,
    auto_send: false,
    priority_handling: "high",
  },
};

describe.each(BACKENDS)("agent and AI API on %s (local engine)", (kind) => {
  const suite = apiSuite(kind);
  const { api } = suite;

  it("creates, reads and patches the agent with spec defaults and validation", async () => {
    const { token } = await signedInUser(suite.db);
    expect((await api("GET", "/api/agent", token)).json).toBeNull();
    const bad = await api("POST", "/api/agent", token, {
      name: "  ",
      preferences: {
        tone_preference: "Snarky",
        vip_contacts: ["a@b.com", " a@b.com "],
        forbidden_phrases: [""],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "validation_failed" });
    const fields = (bad.json.error as { fields: Record<string, string> }).fields;
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining([
        "name",
        "preferences.tone_preference",
        "preferences.vip_contacts",
        "preferences.forbidden_phrases.0",
      ]),
    );

    const created = await api("POST", "/api/agent", token, { name: "Ada" });
    expect(created.status).toBe(201);
    const agent = agentSchema.parse(created.json);
    expect(agent.preferences).toMatchObject({
      tone_preference: "Professional",
      email_behavior: {
        auto_draft: true,
        auto_send: false,
        priority_handling: "medium",
        ignore_categories: [],
      },
    });
    expect((await api("POST", "/api/agent", token, { name: "Twice" })).status).toBe(409);

    const patched = await api("PATCH", `/api/agent/${agent.id}`, token, {
      preferences: { vip_contacts: [" boss@acme.com "], email_behavior: { auto_send: true } },
    });
    expect(patched.status).toBe(200);
    expect(agentSchema.parse(patched.json).preferences).toMatchObject({
      vip_contacts: ["boss@acme.com"],
      email_behavior: { auto_draft: true, auto_send: true },
    });
    // A patch naming one behaviour field keeps the others as stored, not as the defaults.
    const full = await api("PATCH", `/api/agent/${agent.id}`, token, { preferences: PREFS });
    expect(full.status).toBe(200);
    const one = await api("PATCH", `/api/agent/${agent.id}`, token, {
      preferences: { email_behavior: { auto_send: true } },
    });
    expect(agentSchema.parse(one.json).preferences).toMatchObject({
      forbidden_phrases: PREFS.forbidden_phrases,
      email_behavior: { ...PREFS.email_behavior, auto_send: true },
    });
    expect(
      agentSchema.parse((await api("GET", "/api/agent", token)).json).preferences.email_behavior,
    ).toEqual({
      ...PREFS.email_behavior,
      auto_send: true,
    });
    // Another person cannot touch it.
    const other = await signedInUser(suite.db);
    expect((await api("PATCH", `/api/agent/${agent.id}`, other.token, { name: "Mine" })).status).toBe(404);
    expect((await api("PATCH", "/api/agent/not-a-uuid", token, { name: "X" })).json.error).toMatchObject({
      code: "not_found",
      message: "No such agent.",
    });
    expect((await api("GET", "/api/agent", token)).json).toMatchObject({ name: "Ada" });
  });

  it("drafts locally in the agent's tone with its signature and without forbidden phrases", async () => {
    const { token, account } = await signedInUser(suite.db);
    await api("POST", "/api/agent", token, { name: "Ada", preferences: PREFS });
    const email = await createEmail(suite.db, account, {
      fromName: "Priya Shah",
      fromAddress: "priya.shah@example.org",
      subject: "Budget review",
      bodyText:
        "Hi, could you circle back on the Q3 budget? Can you send the revised numbers by Friday? The deadline is Friday noon.",
    });
    for (const responseType of ["professional", "friendly", "brief", "detailed"] as const) {
      const r = await api("POST", `/api/agent/response/${email.id}`, token, { responseType });
      expect(r.status).toBe(200);
      const answer = agentReplyResponseSchema.parse(r.json);
      expect(answer.engine).toBe("local");
      expect(answer.responses.length).toBeGreaterThan(0);
      for (const reply of answer.responses) {
        expect(reply.startsWith("Dear Priya,")).toBe(true);
        expect(reply.endsWith("Kind regards,\nDana Whitfield\nAcme Corp")).toBe(true);
        expect(reply.toLowerCase()).not.toContain("circle back");
      }
      if (responseType === "detailed") expect(answer.responses[0]).toContain("revised numbers");
    }
    const improved = await api("POST", "/api/ai/improve-text", token, {
      text: "hey sam,  i think that we should  just circle back on teh the budget tommorow",
    });
    expect(improveTextResponseSchema.parse(improved.json)).toEqual({
      improvedText: "Hello sam, we should on the budget tomorrow.",
      engine: "local",
    });
    const compose = await api("POST", "/api/ai/compose-suggestions", token, {
      subject: "Re: Budget review",
      body: "",
      replyTo:
        "--- Original Message ---\nFrom: Priya Shah <priya.shah@example.org>\nCan you send the numbers?",
    });
    const suggestions = composeSuggestionsResponseSchema.parse(compose.json);
    expect(suggestions.suggestions[0]).toMatch(/^Dear Priya,/);
    expect((await api("POST", "/api/ai/improve-text", token, { text: "   " })).status).toBe(400);
    const insights = agentInsightsSchema.parse((await api("GET", "/api/agent/insights", token)).json);
    expect(insights.totalConversations).toBe(6);
  });

  it("analyses on demand, stores it with a bucket, learns memories, and skips ignored categories in the job", async () => {
    const { token, account, user } = await signedInUser(suite.db);
    const other = await signedInUser(suite.db);
    await api("POST", "/api/agent", token, { name: "Ada", preferences: PREFS });
    // The user has written to the supplier before: a correspondent the agent may learn about.
    await createEmail(suite.db, account, {
      isSent: true,
      fromAddress: "me@example.com",
      toRecipients: [{ name: "Acme Billing", address: "billing@acme-supplies.com" }],
      aiAnalysis: { engine: "local", skipped: "own_mail" },
    });
    const invoice = await createEmail(suite.db, account, {
      fromName: "Acme Billing",
      fromAddress: "billing@acme-supplies.com",
      subject: "Invoice INV-2231 due Friday",
      bodyText:
        "Please find attached invoice INV-2231 for March. Payment is due by Friday. Let me know if you have questions?",
      bucket: "other",
    });
    const r = await api("POST", `/api/agent/analyze/${invoice.id}`, token);
    expect(r.status).toBe(200);
    const analysis = emailAnalysisSchema.parse(r.json);
    expect(analysis.engine).toBe("local");
    expect(analysis.importance).toBeGreaterThanOrEqual(0);
    expect((await api("POST", `/api/agent/analyze/${invoice.id}`, other.token)).status).toBe(404);
    const [stored] = await suite.db.select().from(emails).where(eq(emails.id, invoice.id));
    expect(stored?.aiAnalysis).toMatchObject({ engine: "local", summary: analysis.summary });

    const newsletter = await createEmail(suite.db, account, {
      fromName: "Weekly Digest",
      fromAddress: "news@digest.example.com",
      subject: "This week's newsletter: 10 stories",
      bodyText: "Our weekly newsletter digest. Read the top stories. Unsubscribe here. View in browser.",
      listUnsubscribe: "<https://digest.example.com/u>",
      bucket: "newsletters",
    });
    const person = await createEmail(suite.db, account, {
      fromName: "Sam Taylor",
      fromAddress: "sam.taylor@example.org",
      subject: "Lunch on Thursday?",
      bodyText: "Hey, are you free for lunch on Thursday? Let me know!",
    });
    const done = await suite.server.app.ai.analysis.analysePending(user.id, 200);
    expect(done).toBe(2);
    const [n] = await suite.db.select().from(emails).where(eq(emails.id, newsletter.id));
    expect(n?.aiAnalysis).toMatchObject({
      skipped: "ignored_category",
      category: "newsletter",
      ignoredAs: "Newsletters",
    });
    expect(n?.aiAnalysis).not.toHaveProperty("summary");
    const [p] = await suite.db.select().from(emails).where(eq(emails.id, person.id));
    expect(p?.aiAnalysis).toMatchObject({ engine: "local" });
    expect(typeof p?.aiAnalysis?.summary).toBe("string");
    expect(await suite.server.app.ai.analysis.analysePending(user.id, 200)).toBe(0);

    const memories = memoryListSchema.parse((await api("GET", "/api/agent/memories", token)).json).memories;
    expect(memories.length).toBeGreaterThan(0);
    // Memories are about the correspondent, never about the one-off sender of the lunch mail.
    expect(memories.some((m) => m.content.includes("billing@acme-supplies.com"))).toBe(true);
    expect(memories.some((m) => m.content.includes("sam.taylor@example.org"))).toBe(false);
    const first = memories[0];
    if (!first) throw new Error("no memory");
    expect((await api("DELETE", `/api/agent/memories/${first.id}`, other.token)).status).toBe(404);
    // An id that cannot name a memory gets the memory's own 404, not an email's.
    const malformed = await api("DELETE", "/api/agent/memories/x", token);
    expect(malformed.status).toBe(404);
    expect(malformed.json.error).toMatchObject({ code: "not_found", message: "No such memory." });
    expect((await api("DELETE", `/api/agent/memories/${first.id}`, token)).status).toBe(204);
    const after = agentInsightsSchema.parse((await api("GET", "/api/agent/insights", token)).json);
    expect(after.totalMemories).toBe(memories.length - 1);
  });

  it("answers errors in the API shape", async () => {
    const { token } = await signedInUser(suite.db);
    const r = await api("POST", "/api/agent/response/not-a-uuid", token, { responseType: "professional" });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ error: { code: "not_found" } });
    const bad = await api("POST", "/api/agent/response/00000000-0000-4000-8000-000000000000", token, {
      responseType: "rude",
    });
    expect(bad.json).toMatchObject({ error: { code: "validation_failed" } });
    expect((await fetch(`${suite.server.url}/api/agent`)).status).toBe(401);
  });
});
