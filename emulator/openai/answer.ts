/**
 * The emulated model's "thinking": a deterministic answer that fits the JSON schema the caller
 * asked for, built from simple keyword heuristics on the prompt. It is deliberately naive about
 * prompt injection (it obeys "ignore previous instructions" found anywhere in the prompt), so
 * the app's own defences are what tests exercise.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
}

export interface PromptView {
  system: string;
  /** The untrusted data block when the prompt marks one, else the whole user message. */
  data: string;
  user: string;
}

const BEGIN = /-{3,}\s*BEGIN[^\n]*-{3,}\n?/i;
const END = /\n?-{3,}\s*END[^\n]*-{3,}/i;

export function viewPrompt(messages: ReadonlyArray<{ role: string; content: unknown }>): PromptView {
  const text = (m: { content: unknown }) =>
    typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
        ? m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("\n")
        : "";
  const system = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(text)
    .join("\n");
  const user = messages
    .filter((m) => m.role === "user")
    .map(text)
    .join("\n");
  const start = user.search(BEGIN);
  let data = user;
  if (start >= 0) {
    const rest = user.slice(start).replace(BEGIN, "");
    const end = rest.search(END);
    data = end >= 0 ? rest.slice(0, end) : rest;
  }
  return { system, data, user };
}

const INJECTION = /ignore (all |any )?(the )?(previous|prior|above|earlier) (instructions|rules|prompts?)/i;
const LEAK = /(system prompt|your instructions|initial instructions)/i;
const SAY = /(?:say|respond with|reply with|output|write)\s*[:"'“]\s*([^"'”\n]{1,80})/i;

/** What a gullible model does with an injection: leak its instructions or parrot the payload. */
function injected(view: PromptView): string | undefined {
  if (!INJECTION.test(view.data)) return undefined;
  if (LEAK.test(view.data)) return view.system;
  return SAY.exec(view.data)?.[1];
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 3);
}

function firstName(view: PromptView): string {
  const match = /^From:\s*"?([A-Za-z][A-Za-z'-]*)/im.exec(view.data);
  return match?.[1] ?? "there";
}

const has = (re: RegExp, text: string) => re.test(text);

function pickEnum(key: string, options: unknown[], text: string): unknown {
  const want = (value: string) => (options.includes(value) ? value : undefined);
  switch (key) {
    case "urgency":
      return (
        (has(/\b(urgent|asap|immediately|right away|today)\b/i, text) && want("high")) ||
        (has(/\b(deadline|soon|tomorrow|by friday|this week|please)\b/i, text) && want("medium")) ||
        want("low") ||
        options[0]
      );
    case "sentiment":
      return (
        (has(/\b(unfortunately|problem|angry|disappointed|broken|complaint|fail(ed|ure)?)\b/i, text) &&
          want("negative")) ||
        (has(/\b(thanks|thank you|great|happy|glad|congrat\w*|love|excited)\b/i, text) && want("positive")) ||
        want("neutral") ||
        options[0]
      );
    case "category":
      return (
        (has(/\bunsubscribe|newsletter|digest\b/i, text) && want("newsletter")) ||
        (has(/\b(sale|discount|% off|offer|deal)\b/i, text) && want("promotions")) ||
        (has(/\b(meeting|project|invoice|client|deadline|report|budget)\b/i, text) && want("work")) ||
        (has(/\b(password|verification code|sign-?in)\b/i, text) && want("security")) ||
        want("personal") ||
        options[0]
      );
    case "responseTime":
      return (
        (has(/\b(urgent|asap|immediately)\b/i, text) && want("Within 1 hour")) ||
        (has(/\?|\bplease\b/i, text) && want("Today")) ||
        want("No response needed") ||
        options[0]
      );
    default:
      return options[0];
  }
}

function improve(text: string): string {
  return text
    .replace(/ {2,}/g, " ")
    .replace(/\bi\b/g, "I")
    .replace(/(^|[.!?]\s+)([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase())
    .trim();
}

function strings(key: string, view: PromptView, max: number): string[] {
  const text = view.data;
  const name = firstName(view);
  const all = sentences(text);
  switch (key) {
    case "keyPoints":
      return all.filter((s) => /\?|deadline|by |please|need/i.test(s)).slice(0, max);
    case "suggestedActions":
      return (text.includes("?") ? ["Reply to the sender"] : ["Read when convenient"]).slice(0, max);
    case "newMemories":
      return [];
    case "suggestions":
    case "responses": {
      const topic = all[0]?.slice(0, 80) ?? "your message";
      const replies = [
        `Hi ${name},\n\nThank you for your email about "${topic}". I will look into it and get back to you shortly.\n\nBest regards`,
        `Hi ${name},\n\nThanks for reaching out. Yes, that works for me.\n\nBest regards`,
        `Hi ${name},\n\nThanks for the note. Could you share a few more details?\n\nBest regards`,
      ];
      return replies.slice(0, Math.max(1, Math.min(max, 3)));
    }
    default:
      return all.slice(0, Math.min(max, 2));
  }
}

function stringFor(key: string, view: PromptView): string {
  switch (key) {
    case "summary":
      return (sentences(view.data)[0] ?? "No content.").slice(0, 200);
    case "improvedText":
      return improve(view.data);
    default:
      return (sentences(view.data)[0] ?? "").slice(0, 200);
  }
}

function numberFor(key: string, schema: JsonSchema, text: string, integer: boolean): number {
  const min = schema.minimum ?? 0;
  const max = schema.maximum ?? 10;
  let value = (min + max) / 2;
  if (key === "importance") {
    value = 3;
    if (has(/\?/, text)) value += 2;
    if (has(/\b(urgent|asap|deadline|important)\b/i, text)) value += 3;
    if (has(/\bunsubscribe\b/i, text)) value -= 2;
  }
  value = Math.min(max, Math.max(min, value));
  return integer ? Math.round(value) : value;
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null");
  return schema.type;
}

/** A value valid for `schema`, named `key` in its parent object. */
export function valueFor(schema: JsonSchema, view: PromptView, key = ""): unknown {
  if (schema.anyOf?.[0]) return valueFor(schema.anyOf[0], view, key);
  if (schema.enum) return pickEnum(key, schema.enum, view.data);
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        out[name] = valueFor(child, view, name);
      }
      return out;
    }
    case "array": {
      const max = schema.maxItems ?? 3;
      const items = strings(key, view, max);
      const min = schema.minItems ?? 0;
      while (items.length < min) items.push(stringFor(key, view) || "n/a");
      return items;
    }
    case "integer":
      return numberFor(key, schema, view.data, true);
    case "number":
      return numberFor(key, schema, view.data, false);
    case "boolean":
      return key === "needsReply" ? /\?|\b(please|let me know|could you|can you)\b/i.test(view.data) : false;
    default:
      return stringFor(key, view);
  }
}

/**
 * The assistant message content: JSON for a json_schema request (with an injection's payload
 * planted in the first string field, as a gullible model would), plain text otherwise.
 */
export function answer(view: PromptView, schema: JsonSchema | undefined): string {
  const payload = injected(view);
  if (!schema) return payload ?? improve(view.data);
  const value = valueFor(schema, view);
  if (payload !== undefined && value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const first = Object.keys(record).find(
      (k) => typeof record[k] === "string" && !schema.properties?.[k]?.enum,
    );
    const list = Object.keys(record).find((k) => Array.isArray(record[k]));
    if (first) record[first] = payload;
    else if (list) record[list] = [payload];
  }
  return JSON.stringify(value);
}

/** Rough token count (4 characters a token), enough for usage accounting. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
