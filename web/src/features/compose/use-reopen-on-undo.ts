import { useEffect } from "react";
import type { HeldRequest } from "../../../../contract/outbox.ts";
import { takeReopened, useReopenedCompose } from "./held-send.ts";

/** Calls `open` with each request an Undo gives back (once), for the screen that owns compose. */
export function useReopenOnUndo(open: (request: HeldRequest) => void): void {
  const request = useReopenedCompose();
  useEffect(() => {
    if (!request) return;
    takeReopened();
    open(request);
  }, [request, open]);
}
