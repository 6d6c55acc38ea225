import type { Email } from "../../../../contract/mail.ts";
import { NO_REPLY_LABEL } from "../../../../contract/scheduled.ts";

/**
 * "No reply yet" (issue 37): the person's own mail came back to the inbox because a follow-up
 * reminder found no answer. Shown in list rows and the reader; nothing for other mail.
 */
export function NoReplyMark({
  email,
  size = "row",
}: {
  email: Pick<Email, "resurfaceReason">;
  size?: "row" | "reader";
}) {
  if (email.resurfaceReason !== "no_reply") return null;
  return (
    <span
      className={`shrink-0 rounded-full bg-amber-100 font-semibold text-amber-900 ${
        size === "row" ? "px-1.5 text-[11px]" : "px-2 py-0.5 text-xs"
      }`}
    >
      {NO_REPLY_LABEL}
    </span>
  );
}
