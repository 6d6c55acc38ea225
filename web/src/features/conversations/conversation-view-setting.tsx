import { MailSettingSection } from "./mail-setting-section.tsx";

/** Settings > Reading: "Conversation view", on by default, stored on the server. */
export function ConversationViewSetting() {
  return (
    <MailSettingSection title="Reading">
      {({ id, settings, update }) => (
        <div className="flex items-start gap-2">
          <input
            id={id}
            type="checkbox"
            className="mt-1 h-4 w-4 accent-brand-600"
            checked={settings?.conversationView ?? true}
            disabled={!settings}
            onChange={(e) => update({ conversationView: e.target.checked })}
          />
          <label htmlFor={id} className="text-sm text-slate-800">
            Conversation view
            <span className="block text-xs text-slate-600">
              A message and its replies, yours included, are one row and read together. When off, every
              message is its own row.
            </span>
          </label>
        </div>
      )}
    </MailSettingSection>
  );
}
