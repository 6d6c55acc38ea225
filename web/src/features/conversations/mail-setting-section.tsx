import { type ReactNode, useId } from "react";
import type { MailSettings } from "../../../../contract/conversations.ts";
import { useMailSettings, useUpdateMailSettings } from "./conversation-api.ts";

/** What a mail setting's control gets: its id (for its label), the settings and the change. */
export interface MailSettingControl {
  id: string;
  settings: MailSettings | undefined;
  update: (change: Partial<MailSettings>) => void;
}

/**
 * One section of the mail settings stored on the server (Reading, Sending): its heading, the
 * control the caller draws, and a sentence when the settings could not be loaded.
 */
export function MailSettingSection({
  title,
  children,
}: {
  title: string;
  children: (control: MailSettingControl) => ReactNode;
}) {
  const settings = useMailSettings();
  const update = useUpdateMailSettings();
  const id = useId();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-slate-200 pt-4">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
        {title}
      </h3>
      {children({ id, settings: settings.data, update: (change) => update.mutate(change) })}
      {settings.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          This setting could not be loaded. Close this window and try again.
        </p>
      ) : null}
    </section>
  );
}
