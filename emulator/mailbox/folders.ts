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
export type WellKnownFolder = (typeof WELL_KNOWN_FOLDERS)[number];
/**
 * A folder the person (or an app) made under the mailbox root (Graph POST /me/mailFolders): held
 * as a label of this id on the shared store, so a message is still in exactly one folder.
 */
export type CustomFolder = `Folder_${string}`;
export type FolderName = WellKnownFolder | CustomFolder;

export function isCustomFolder(value: string): value is CustomFolder {
  return value.startsWith("Folder_");
}

export const FOLDER_DISPLAY_NAMES: Record<WellKnownFolder, string> = {
  inbox: "Inbox",
  archive: "Archive",
  deleteditems: "Deleted Items",
  junkemail: "Junk Email",
  sentitems: "Sent Items",
  drafts: "Drafts",
};

/** Labels that decide the folder; moving replaces all of them. */
const FOLDER_LABELS: Record<WellKnownFolder, string | undefined> = {
  inbox: "INBOX",
  archive: undefined,
  deleteditems: "TRASH",
  junkemail: "SPAM",
  sentitems: "SENT",
  drafts: "DRAFT",
};

export function isFolderName(value: string): value is WellKnownFolder {
  return (WELL_KNOWN_FOLDERS as readonly string[]).includes(value);
}

export function folderOf(labels: ReadonlySet<string>): FolderName {
  if (labels.has("DRAFT")) return "drafts";
  if (labels.has("TRASH")) return "deleteditems";
  if (labels.has("SPAM")) return "junkemail";
  if (labels.has("INBOX")) return "inbox";
  for (const label of labels) if (isCustomFolder(label)) return label;
  if (labels.has("SENT")) return "sentitems";
  return "archive";
}

/** Label edits that put a message into `folder`. */
export function labelsForMove(
  labels: ReadonlySet<string>,
  folder: FolderName,
): { add: string[]; remove: string[] } {
  const remove = ["INBOX", "TRASH", "SPAM", "DRAFT"].filter((label) => labels.has(label));
  for (const label of labels) if (isCustomFolder(label)) remove.push(label);
  if (folder !== "sentitems" && folder !== "inbox" && labels.has("SENT")) remove.push("SENT");
  const target = isCustomFolder(folder) ? folder : FOLDER_LABELS[folder];
  const add = target === undefined || labels.has(target) ? [] : [target];
  return { add, remove: remove.filter((label) => label !== target) };
}
