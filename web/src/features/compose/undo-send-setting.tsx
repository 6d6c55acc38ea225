import { DEFAULT_SEND_DELAY, SEND_DELAYS } from "../../../../contract/compose.ts";
import { MailSettingSection } from "../conversations/mail-setting-section.tsx";

/** Settings > Sending: "Undo send", how long a sent mail waits on the server (issue 36). */
export function UndoSendSetting() {
  return (
    <MailSettingSection title="Sending">
      {({ id, settings, update }) => (
        <>
          <label htmlFor={id} className="block text-sm text-slate-800">
            Undo send
            <span className="block text-xs text-slate-600">
              How long after Send you can still take a mail back. It waits on the server, so closing the tab
              does not stop it.
            </span>
          </label>
          <select
            id={id}
            className="mt-2 rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-900"
            value={settings?.sendDelaySeconds ?? DEFAULT_SEND_DELAY}
            disabled={!settings}
            onChange={(e) => {
              const seconds = SEND_DELAYS.find((d) => String(d) === e.target.value);
              if (seconds !== undefined) update({ sendDelaySeconds: seconds });
            }}
          >
            {SEND_DELAYS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? "Off (send at once)" : `${d} seconds`}
              </option>
            ))}
          </select>
        </>
      )}
    </MailSettingSection>
  );
}
