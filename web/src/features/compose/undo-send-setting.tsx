import { useId } from "react";
import { DEFAULT_SEND_DELAY, SEND_DELAYS } from "../../../../contract/compose.ts";
import { useMailSettings, useUpdateMailSettings } from "../conversations/conversation-api.ts";

/** Settings > Sending: "Undo send", how long a sent mail waits on the server (issue 36). */
export function UndoSendSetting() {
  const settings = useMailSettings();
  const update = useUpdateMailSettings();
  const id = useId();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
        Sending
      </h3>
      <label htmlFor={id} className="block text-sm text-slate-800">
        Undo send
        <span className="block text-xs text-slate-600">
          How long after Send you can still take a mail back. It waits on the server, so closing the tab does
          not stop it.
        </span>
      </label>
      <select
        id={id}
        className="mt-2 rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-900"
        value={settings.data?.sendDelaySeconds ?? DEFAULT_SEND_DELAY}
        disabled={!settings.data}
        onChange={(e) => {
          const seconds = SEND_DELAYS.find((d) => String(d) === e.target.value);
          if (seconds !== undefined) update.mutate({ sendDelaySeconds: seconds });
        }}
      >
        {SEND_DELAYS.map((d) => (
          <option key={d} value={d}>
            {d === 0 ? "Off (send at once)" : `${d} seconds`}
          </option>
        ))}
      </select>
    </section>
  );
}
