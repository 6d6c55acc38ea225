import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import {
  type Agent,
  type AgentPreferences,
  type agentCreateSchema,
  type agentPatchSchema,
  agentPreferencesSchema,
} from "../../contract/ai.ts";
import type { Db } from "../db/client.ts";
import { agents, users } from "../db/schema.ts";
import { DomainError } from "../http/errors.ts";
import type { Clock } from "../lib/clock.ts";
import { setSignatureTextEverywhere, signatureTextFor } from "../signatures/signature-service.ts";

type AgentRow = typeof agents.$inferSelect;

/** Preferences as stored, re-validated: a row from an older version still reads as defaults. */
export function preferencesOf(row: Pick<AgentRow, "preferences"> | undefined): AgentPreferences {
  const parsed = agentPreferencesSchema.safeParse(row?.preferences ?? {});
  return parsed.success ? parsed.data : agentPreferencesSchema.parse({});
}

/** The agent's email_signature is a view of the accounts' signatures (decision 0064). */
function present(row: AgentRow, email: string, signature: string): Agent {
  return {
    id: row.id,
    name: row.name,
    personality: row.personality,
    email,
    preferences: { ...preferencesOf(row), email_signature: signature },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The user's agent: one per person, created once, then patched. */
export function createAgentService(deps: { db: Db; clock: Clock }) {
  const { db } = deps;

  async function load(userId: string) {
    const [row] = await db
      .select({ agent: agents, email: users.email })
      .from(agents)
      .innerJoin(users, eq(users.id, agents.userId))
      .where(eq(agents.userId, userId));
    return row;
  }

  return {
    async get(userId: string): Promise<Agent | null> {
      const row = await load(userId);
      return row ? present(row.agent, row.email, await signatureTextFor(db, userId)) : null;
    },

    /** The agent's row for the AI features; undefined when none is set up (nothing automatic runs). */
    async settings(userId: string): Promise<{ id: string; preferences: AgentPreferences } | undefined> {
      const [row] = await db.select().from(agents).where(eq(agents.userId, userId));
      return row ? { id: row.id, preferences: preferencesOf(row) } : undefined;
    },

    async create(userId: string, input: z.output<typeof agentCreateSchema>): Promise<Agent> {
      const inserted = await db
        .insert(agents)
        .values({
          userId,
          name: input.name,
          personality: input.personality ?? "",
          // The signature lives on the accounts (decision 0064), never in the agent's row.
          preferences: { ...input.preferences, email_signature: "" },
          createdAt: deps.clock.now(),
          updatedAt: deps.clock.now(),
        })
        .onConflictDoNothing({ target: agents.userId })
        .returning({ id: agents.id });
      if (inserted.length === 0) {
        throw new DomainError("conflict", "An agent already exists; update it instead.");
      }
      if (input.preferences.email_signature.trim() !== "") {
        await setSignatureTextEverywhere(db, userId, input.preferences.email_signature);
      }
      const row = await load(userId);
      if (!row) throw new Error("agent vanished after insert");
      return present(row.agent, row.email, await signatureTextFor(db, userId));
    },

    async update(userId: string, id: string, patch: z.output<typeof agentPatchSchema>): Promise<Agent> {
      const row = await load(userId);
      if (!row || row.agent.id !== id) throw new DomainError("not_found", "No such agent.");
      const current = preferencesOf(row.agent);
      const next = agentPreferencesSchema.parse({
        ...current,
        ...patch.preferences,
        email_behavior: { ...current.email_behavior, ...patch.preferences?.email_behavior },
        email_signature: "",
      });
      const signature = patch.preferences?.email_signature;
      if (signature !== undefined && signature.trim() !== (await signatureTextFor(db, userId)).trim()) {
        await setSignatureTextEverywhere(db, userId, signature);
      }
      await db
        .update(agents)
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.personality !== undefined ? { personality: patch.personality } : {}),
          preferences: next,
          updatedAt: deps.clock.now(),
        })
        .where(and(eq(agents.id, id), eq(agents.userId, userId)));
      const updated = await load(userId);
      if (!updated) throw new DomainError("not_found", "No such agent.");
      return present(updated.agent, updated.email, await signatureTextFor(db, userId));
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
