import type { AnswerMode } from "../compose/compose-source.ts";
import { BTN_PRIMARY, BTN_SECONDARY } from "./dialog-classes.ts";

/** The reader's Reply, Reply all and Forward (issue 36: named exactly so). */
export function AnswerButtons({
  onAnswer,
  disabled,
}: {
  onAnswer: (mode: AnswerMode) => void;
  disabled?: boolean;
}) {
  return (
    <>
      <button type="button" className={BTN_PRIMARY} onClick={() => onAnswer("reply")} disabled={disabled}>
        Reply
      </button>
      <button
        type="button"
        className={BTN_SECONDARY}
        onClick={() => onAnswer("replyAll")}
        disabled={disabled}
      >
        Reply all
      </button>
      <button type="button" className={BTN_SECONDARY} onClick={() => onAnswer("forward")} disabled={disabled}>
        Forward
      </button>
    </>
  );
}
