import { useId } from "react";
import { useMailSettings, useUpdateMailSettings } from "./conversation-api.ts";

/** Settings > Reading: "Conversation view", on by default, stored on the server. */
export function ConversationViewSetting() {
  const settings = useMailSettings();
  const update = useUpdateMailSettings();
  const id = useId();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
        Reading
      </h3>
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          className="mt-1 h-4 w-4 accent-brand-600"
          checked={settings.data?.conversationView ?? true}
          disabled={!settings.data}
          onChange={(e) => update.mutate({ conversationView: e.target.checked })}
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          Conversation view
          <span className="block text-xs text-slate-600">
            A message and its replies, yours included, are one row and read together. When off, every message
            is its own row.
          </span>
        </label>
      </div>
      {settings.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          This setting could not be loaded. Close this window and try again.
        </p>
      ) : null}
    </section>
  );
}
