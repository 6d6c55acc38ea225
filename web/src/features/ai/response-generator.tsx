import { useId, useState } from "react";
import type { ResponseStyle } from "../../../../contract/ai.ts";
import { BTN_PRIMARY, BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { engineLabel, RESPONSE_STYLE_OPTIONS, useGenerateResponses } from "./ai-api.ts";
import { copyText } from "./copy.ts";
import { SELECT } from "./form-classes.ts";

const STYLE_LABELS: Record<ResponseStyle, string> = {
  professional: "Professional",
  friendly: "Friendly",
  brief: "Brief",
  detailed: "Detailed",
};

/** The AI Response Generator: pick a style, get reply drafts, copy one. */
export function ResponseGenerator({ emailId }: { emailId: string }) {
  const id = useId();
  const [style, setStyle] = useState<ResponseStyle>("professional");
  const generate = useGenerateResponses(emailId);
  const answer = generate.data;
  // Keys are the texts themselves, so repeated drafts are shown once.
  const responses = [...new Set(answer?.responses ?? [])];
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-slate-200 p-4">
      <h3 id={`${id}-title`} className="font-semibold text-slate-900">
        AI Response Generator
      </h3>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-style`} className="mb-1 block text-sm font-medium text-slate-700">
            Response style
          </label>
          <select
            id={`${id}-style`}
            className={SELECT}
            value={style}
            onChange={(e) => setStyle(e.target.value as ResponseStyle)}
          >
            {RESPONSE_STYLE_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {STYLE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={BTN_PRIMARY}
          disabled={generate.isPending}
          aria-busy={generate.isPending || undefined}
          onClick={() => generate.mutate(style)}
        >
          {generate.isPending ? "Generating…" : "Generate responses"}
        </button>
      </div>
      {answer ? (
        <div className="mt-3">
          {responses.length === 0 ? (
            <p className="text-sm text-slate-600">No responses came back. Try another style.</p>
          ) : (
            <ul
              aria-label="Generated responses"
              data-testid="generated-responses"
              // Spec section 9: the list is at most 10rem tall and scrolls.
              className="max-h-[10rem] space-y-2 overflow-y-auto pr-1"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
              tabIndex={0}
            >
              {responses.map((text, i) => (
                <li key={text} className="rounded-lg border border-slate-200 bg-slate-50 p-2">
                  <p className="text-sm whitespace-pre-wrap text-slate-800">{text}</p>
                  <button
                    type="button"
                    className={`${BTN_SECONDARY} mt-2 py-1`}
                    aria-label={`Copy response ${i + 1}`}
                    onClick={() => void copyText(text)}
                  >
                    Copy
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-xs text-slate-500" data-testid="responses-engine">
            Written by {engineLabel(answer.engine, answer.fallback)}
          </p>
        </div>
      ) : null}
    </section>
  );
}
