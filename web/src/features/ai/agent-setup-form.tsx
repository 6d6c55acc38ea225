import { Switch } from "radix-ui";
import { type ReactNode, useId, useState } from "react";
import type { Agent, AgentPreferences, IgnoreCategory, Tone } from "../../../../contract/ai.ts";
import { BTN_PRIMARY } from "../reader/dialog-classes.ts";
import {
  DEFAULT_PREFERENCES,
  IGNORE_OPTIONS,
  PRIORITY_OPTIONS,
  TONE_OPTIONS,
  useSaveAgent,
} from "./ai-api.ts";
import { ChipInput } from "./chip-input.tsx";
import { FIELD, LABEL, SELECT } from "./form-classes.ts";

type Priority = AgentPreferences["email_behavior"]["priority_handling"];

const PRIORITY_LABELS: Record<Priority, string> = { low: "Low", medium: "Medium", high: "High" };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

function Toggle({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-3">
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <p id={`${id}-d`} className="text-xs text-slate-600">
          {description}
        </p>
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby={`${id}-d`}
        className="relative h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=checked]:bg-brand-600"
      >
        <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </Switch.Root>
    </div>
  );
}

export interface AgentSetupFormProps {
  /** The stored agent, or null before one is set up (then the form creates one). */
  agent: Agent | null;
  /** The signed-in person's address, shown as the agent's email. */
  userEmail: string;
}

/** The AI Agent Setup form (spec sections 2, 4, 5). */
export function AgentSetupForm({ agent, userEmail }: AgentSetupFormProps) {
  const id = useId();
  const save = useSaveAgent();
  const [name, setName] = useState(agent?.name ?? "");
  const [personality, setPersonality] = useState(agent?.personality ?? "");
  const [prefs, setPrefs] = useState<AgentPreferences>(() => ({
    ...DEFAULT_PREFERENCES,
    ...agent?.preferences,
    email_behavior: { ...DEFAULT_PREFERENCES.email_behavior, ...agent?.preferences.email_behavior },
  }));
  const set = <K extends keyof AgentPreferences>(key: K, value: AgentPreferences[K]) =>
    setPrefs((p) => ({ ...p, [key]: value }));
  const setBehavior = <K extends keyof AgentPreferences["email_behavior"]>(
    key: K,
    value: AgentPreferences["email_behavior"][K],
  ) => setPrefs((p) => ({ ...p, email_behavior: { ...p.email_behavior, [key]: value } }));

  const nameMissing = name.trim() === "";
  const toggleIgnore = (category: IgnoreCategory, on: boolean) => {
    const current = prefs.email_behavior.ignore_categories;
    setBehavior(
      "ignore_categories",
      // Kept in the spec's order whatever the clicking order.
      IGNORE_OPTIONS.filter((c) => (c === category ? on : current.includes(c))),
    );
  };

  return (
    <form
      aria-label="AI Agent Setup"
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (nameMissing || save.isPending) return;
        save.mutate({
          existingId: agent?.id ?? null,
          input: { name: name.trim(), personality: personality.trim(), preferences: prefs },
        });
      }}
    >
      <Section title="Basic Information">
        <div>
          <label htmlFor={`${id}-name`} className={LABEL}>
            Agent name <span aria-hidden="true">*</span>
          </label>
          <input
            id={`${id}-name`}
            type="text"
            className={FIELD}
            required
            aria-required="true"
            aria-describedby={`${id}-name-hint`}
            maxLength={100}
            value={name}
            placeholder="e.g. Max"
            onChange={(e) => setName(e.target.value)}
          />
          <p id={`${id}-name-hint`} className="mt-1 text-xs text-slate-600">
            Required.
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-personality`} className={LABEL}>
            Personality (optional)
          </label>
          <textarea
            id={`${id}-personality`}
            className={FIELD}
            rows={2}
            maxLength={500}
            value={personality}
            placeholder="e.g. Calm and to the point"
            onChange={(e) => setPersonality(e.target.value)}
          />
        </div>
        <dl>
          <dt className={LABEL}>Email</dt>
          <dd className="text-sm break-words text-slate-800" data-testid="agent-email">
            {agent?.email || userEmail}
          </dd>
        </dl>
      </Section>

      <Section title="Communication Style">
        <div>
          <label htmlFor={`${id}-tone`} className={LABEL}>
            Tone
          </label>
          <select
            id={`${id}-tone`}
            className={SELECT}
            value={prefs.tone_preference}
            onChange={(e) => set("tone_preference", e.target.value as Tone)}
          >
            {TONE_OPTIONS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-style`} className={LABEL}>
            Reply style
          </label>
          <textarea
            id={`${id}-style`}
            className={FIELD}
            rows={3}
            maxLength={2000}
            value={prefs.reply_style}
            placeholder="e.g. Short paragraphs, answer the question first"
            onChange={(e) => set("reply_style", e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-signature`} className={LABEL}>
            Email signature
          </label>
          <textarea
            id={`${id}-signature`}
            className={FIELD}
            rows={3}
            maxLength={2000}
            value={prefs.email_signature}
            onChange={(e) => set("email_signature", e.target.value)}
          />
        </div>
        <ChipInput
          label="Forbidden phrases"
          hint="Press Enter to add a phrase the agent must never use."
          items={prefs.forbidden_phrases}
          onChange={(items) => set("forbidden_phrases", items)}
        />
      </Section>

      <Section title="VIP Contacts">
        <ChipInput
          label="VIP contacts"
          hint="Press Enter to add an address or domain whose mail always matters."
          placeholder="name@example.com"
          items={prefs.vip_contacts}
          onChange={(items) => set("vip_contacts", items)}
        />
      </Section>

      <Section title="Email Behavior">
        <fieldset>
          <legend className={LABEL}>Ignore categories</legend>
          <div className="grid grid-cols-1 gap-1.5 min-[360px]:grid-cols-2">
            {IGNORE_OPTIONS.map((c) => (
              <label key={c} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  checked={prefs.email_behavior.ignore_categories.includes(c)}
                  onChange={(e) => toggleIgnore(c, e.target.checked)}
                />
                {c}
              </label>
            ))}
          </div>
        </fieldset>
        <Toggle
          label="Auto-draft replies"
          description="Prepare reply drafts for mail that needs an answer."
          checked={prefs.email_behavior.auto_draft}
          onChange={(on) => setBehavior("auto_draft", on)}
        />
        <Toggle
          label="Auto-send replies"
          description="Send drafts without asking you first."
          checked={prefs.email_behavior.auto_send}
          onChange={(on) => setBehavior("auto_send", on)}
        />
        <div>
          <label htmlFor={`${id}-priority`} className={LABEL}>
            Priority handling
          </label>
          <select
            id={`${id}-priority`}
            className={SELECT}
            value={prefs.email_behavior.priority_handling}
            onChange={(e) => setBehavior("priority_handling", e.target.value as Priority)}
          >
            {PRIORITY_OPTIONS.map((p) => (
              <option key={p} value={p}>
                {PRIORITY_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      </Section>

      <div className="flex justify-end">
        <button
          type="submit"
          className={BTN_PRIMARY}
          disabled={nameMissing || save.isPending}
          aria-busy={save.isPending || undefined}
        >
          {save.isPending ? "Saving…" : agent ? "Update Agent" : "Create Agent"}
        </button>
      </div>
    </form>
  );
}
