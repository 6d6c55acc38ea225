/**
 * One store serves both providers: Gmail labels are the truth, and an Outlook folder is derived
 * from them. A message is in exactly one folder, as in Outlook.
 */
export const WELL_KNOWN_FOLDERS = [
  "inbox",
  "archive",
  "deleteditems",
  "junkemail",
  "sentitems",
  "drafts",
] as const;
export type FolderName = (typeof WELL_KNOWN_FOLDERS)[number];

export const FOLDER_DISPLAY_NAMES: Record<FolderName, string> = {
  inbox: "Inbox",
  archive: "Archive",
  deleteditems: "Deleted Items",
  junkemail: "Junk Email",
  sentitems: "Sent Items",
  drafts: "Drafts",
};

/** Labels that decide the folder; moving replaces all of them. */
const FOLDER_LABELS: Record<FolderName, string | undefined> = {
  inbox: "INBOX",
  archive: undefined,
  deleteditems: "TRASH",
  junkemail: "SPAM",
  sentitems: "SENT",
  drafts: "DRAFT",
};

export function isFolderName(value: string): value is FolderName {
  return (WELL_KNOWN_FOLDERS as readonly string[]).includes(value);
}

export function folderOf(labels: ReadonlySet<string>): FolderName {
  if (labels.has("DRAFT")) return "drafts";
  if (labels.has("TRASH")) return "deleteditems";
  if (labels.has("SPAM")) return "junkemail";
  if (labels.has("INBOX")) return "inbox";
  if (labels.has("SENT")) return "sentitems";
  return "archive";
}

/** Label edits that put a message into `folder`. */
export function labelsForMove(
  labels: ReadonlySet<string>,
  folder: FolderName,
): { add: string[]; remove: string[] } {
  const remove = ["INBOX", "TRASH", "SPAM", "DRAFT"].filter((label) => labels.has(label));
  if (folder !== "sentitems" && folder !== "inbox" && labels.has("SENT")) remove.push("SENT");
  const target = FOLDER_LABELS[folder];
  const add = target === undefined || labels.has(target) ? [] : [target];
  return { add, remove: remove.filter((label) => label !== target) };
}
