import { AlertDialog } from "radix-ui";
import { useId, useState } from "react";
import {
  DATA_RETENTIONS,
  DELETION_GRACE_DAYS,
  PRIVACY_SETTING_EFFECTS,
  RETENTION_LABELS,
} from "../../../../contract/privacy-texts.ts";
import { AlertDialogRoot } from "../../components/ui/dialog-root.tsx";
import { useChosenValue } from "../../lib/use-chosen-value.ts";
import { CONTACT_EMAIL } from "../public/site-footer.tsx";
import { BTN_DANGER, BTN_PRIMARY, BTN_SECONDARY } from "../reader/dialog-classes.ts";
import { SheetDialog } from "../reader/sheet-dialog.tsx";
import {
  formatDeletionDate,
  useCancelDeletion,
  useDeleteAccount,
  useExportData,
  usePrivacySettings,
  useUpdatePrivacySetting,
} from "./privacy-api.ts";

/** What a deletion removes, named in its confirmation (server/privacy/registry.ts lists the tables). */
export const DELETION_LOSES = [
  "Your Mailwise profile and every signed-in session",
  "Your connected Gmail and Outlook accounts: access is revoked at Google, Microsoft tokens are discarded",
  "Every synced email, with its body and AI analysis",
  "Your AI agent, its preferences, memories and conversations",
  "Replies the agent drafted or sent, and your AI usage records",
  "Connected calendars and their events",
  "Unsubscribe history and these privacy settings",
] as const;

const PREFERENCES = [
  { key: "doNotSell", label: "Do not sell my personal information" },
  { key: "analyticsOptOut", label: "Opt out of analytics" },
  { key: "marketingOptOut", label: "Opt out of marketing" },
] as const;

export interface PrivacyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The Privacy & Data Controls modal: data rights, preferences, retention, compliance notes. */
export function PrivacyDialog({ open, onOpenChange }: PrivacyDialogProps) {
  return (
    <SheetDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Privacy & Data Controls"
      description="Export your data, choose how long Mailwise keeps it, or delete your account."
      bodyClassName="space-y-4"
    >
      {() => <PrivacyBody />}
    </SheetDialog>
  );
}

function PrivacyBody() {
  const settings = usePrivacySettings();
  if (settings.isPending)
    return (
      <p className="text-sm text-slate-600" role="status">
        Loading…
      </p>
    );
  if (settings.isError || !settings.data)
    return (
      <p className="text-sm text-red-800" role="alert">
        Your privacy settings could not be loaded. Close this window and try again.
      </p>
    );
  return (
    <>
      <DataRights scheduledFor={settings.data.deletionScheduledFor} />
      <Preferences values={settings.data} />
      <Retention value={settings.data.dataRetention} />
      <Compliance />
    </>
  );
}

const SECTION = "rounded-xl border border-slate-200 p-4";
const HEADING = "font-semibold text-slate-900";

function DataRights({ scheduledFor }: { scheduledFor: string | null }) {
  const id = useId();
  const exportData = useExportData();
  const remove = useDeleteAccount();
  const cancel = useCancelDeletion();
  const [confirm, setConfirm] = useState<"now" | "scheduled" | null>(null);
  return (
    <section aria-labelledby={`${id}-rights`} className={SECTION}>
      <h3 id={`${id}-rights`} className={HEADING}>
        Your data rights
      </h3>
      <div className="mt-3 space-y-4 text-sm text-slate-700">
        <div>
          <p>
            Download everything Mailwise keeps about you (profile, accounts without their keys, emails with
            their analysis, your agent and its memories, settings, sessions, AI usage) as one JSON file.
          </p>
          <button
            type="button"
            className={`${BTN_PRIMARY} mt-2`}
            disabled={exportData.isPending}
            onClick={() => exportData.mutate()}
          >
            {exportData.isPending ? "Preparing export…" : "Export My Data"}
          </button>
        </div>
        {scheduledFor ? (
          <div className="rounded-lg bg-amber-50 p-3 text-amber-950">
            <p>
              Your account is scheduled for deletion on <strong>{formatDeletionDate(scheduledFor)}</strong>.
            </p>
            <button
              type="button"
              className={`${BTN_SECONDARY} mt-2`}
              disabled={cancel.isPending}
              onClick={() => cancel.mutate()}
            >
              Cancel Deletion
            </button>
          </div>
        ) : (
          <div>
            <p>
              Delete your account {DELETION_GRACE_DAYS} days from now. Until then nothing is removed and you
              can cancel at any time.
            </p>
            <button type="button" className={`${BTN_DANGER} mt-2`} onClick={() => setConfirm("scheduled")}>
              Schedule Deletion
            </button>
          </div>
        )}
        <div>
          <p>Delete your account and all its data right now. This cannot be undone.</p>
          <button type="button" className={`${BTN_DANGER} mt-2`} onClick={() => setConfirm("now")}>
            Delete Now
          </button>
        </div>
      </div>
      <ConfirmDeletion
        kind={confirm}
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={(kind) => {
          remove.mutate(kind === "now", { onSettled: () => setConfirm(null) });
        }}
      />
    </section>
  );
}

function ConfirmDeletion({
  kind,
  busy,
  onCancel,
  onConfirm,
}: {
  kind: "now" | "scheduled" | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (kind: "now" | "scheduled") => void;
}) {
  const now = kind === "now";
  return (
    <AlertDialogRoot open={kind !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">
            {now ? "Delete your account now?" : `Delete your account in ${DELETION_GRACE_DAYS} days?`}
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">
              <p>
                {now
                  ? "This is permanent. You will lose:"
                  : `In ${DELETION_GRACE_DAYS} days you will lose the following; until then you can cancel from the dashboard:`}
              </p>
              <ul className="list-disc space-y-1 pl-5">
                {DELETION_LOSES.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
              <p>The mail in your Gmail and Outlook mailboxes is not deleted.</p>
            </div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel className={BTN_SECONDARY}>Keep My Account</AlertDialog.Cancel>
            <button
              type="button"
              className={`${BTN_DANGER} border-red-600 bg-red-600 text-white hover:bg-red-700`}
              disabled={busy}
              onClick={() => kind && onConfirm(kind)}
            >
              {now ? "Delete Everything Now" : "Schedule Deletion"}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialogRoot>
  );
}

function Preferences({ values }: { values: Record<(typeof PREFERENCES)[number]["key"], boolean> }) {
  const id = useId();
  const update = useUpdatePrivacySetting();
  const [shown, choose] = useChosenValue(values, update.isPending);
  return (
    <section aria-labelledby={`${id}-prefs`} className={SECTION}>
      <h3 id={`${id}-prefs`} className={HEADING}>
        Preferences
      </h3>
      <ul className="mt-3 space-y-3">
        {PREFERENCES.map(({ key, label }) => (
          <li key={key}>
            <label className="flex items-start gap-3 text-sm font-medium text-slate-900">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
                checked={shown[key]}
                disabled={update.isPending}
                aria-describedby={`${id}-${key}`}
                onChange={(e) => {
                  choose({ ...values, [key]: e.target.checked });
                  update.mutate({ [key]: e.target.checked } as { doNotSell: boolean });
                }}
              />
              {label}
            </label>
            <p id={`${id}-${key}`} className="mt-1 pl-7 text-sm text-slate-600">
              {PRIVACY_SETTING_EFFECTS[key]}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Retention({ value }: { value: (typeof DATA_RETENTIONS)[number] }) {
  const id = useId();
  const update = useUpdatePrivacySetting();
  const [shown, choose] = useChosenValue(value, update.isPending);
  return (
    <section aria-labelledby={`${id}-retention`} className={SECTION}>
      <h3 id={`${id}-retention`} className={HEADING}>
        Data retention
      </h3>
      <p id={`${id}-retention-effect`} className="mt-1 text-sm text-slate-600">
        {PRIVACY_SETTING_EFFECTS.dataRetention}
      </p>
      <fieldset className="mt-3" aria-describedby={`${id}-retention-effect`}>
        <legend className="sr-only">Keep Mailwise's copy of your mail for</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {DATA_RETENTIONS.map((r) => (
            <label
              key={r}
              className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name={`${id}-retention`}
                value={r}
                className="accent-brand-600"
                checked={shown === r}
                disabled={update.isPending}
                onChange={() => {
                  choose(r);
                  update.mutate({ dataRetention: r });
                }}
              />
              {RETENTION_LABELS[r]}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}

function Compliance() {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-compliance`} className={SECTION}>
      <h3 id={`${id}-compliance`} className={HEADING}>
        Your rights under GDPR and CCPA
      </h3>
      <div className="mt-2 space-y-2 text-sm text-slate-700">
        <p>
          <strong>GDPR (EU and UK):</strong> you may access and port your data (Export My Data), have it
          erased (Delete Now or Schedule Deletion), restrict how long it is kept (Data retention), and object
          to processing for analytics or marketing (Preferences). Your name and address come from your Google
          or Microsoft account: correct them there and they are updated at your next sign-in.
        </p>
        <p>
          <strong>CCPA (California):</strong> you may know what we collect (Export My Data), have it deleted
          (Delete Now or Schedule Deletion) and opt out of its sale (Do not sell). Using these rights never
          changes your plan, price or features.
        </p>
        <p>
          For anything these controls do not cover, write to{" "}
          <a className="font-medium text-brand-700 underline" href={`mailto:${CONTACT_EMAIL}`}>
            {CONTACT_EMAIL}
          </a>
          ; we answer within 30 days.
        </p>
      </div>
    </section>
  );
}
