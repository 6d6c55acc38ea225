import { DEFAULT_SEND_DELAY, SEND_DELAYS } from "../../../contract/compose.ts";

export type SendDelay = (typeof SEND_DELAYS)[number];

/** The stored "Undo send" delay as one of SEND_DELAYS; anything else (a hand-edited row) is the default. */
export function sendDelayOf(seconds: number): SendDelay {
  return SEND_DELAYS.find((d) => d === seconds) ?? DEFAULT_SEND_DELAY;
}
