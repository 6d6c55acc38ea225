import { useEffect, useRef, useState } from "react";
import { toast } from "../../components/ui/toast-store.ts";
import { AUTH_FAILURE_REASON_KEY, type AuthFailureReason } from "../../lib/storage-keys.ts";
import { parseAuthFailureReason, sessionToastFor } from "./session-texts.ts";

function readReason(): AuthFailureReason {
  try {
    return parseAuthFailureReason(sessionStorage.getItem(AUTH_FAILURE_REASON_KEY));
  } catch {
    return "manual";
  }
}

/**
 * Reads authFailureReason once, shows the toast for session_expired / token_invalid (spec
 * section 8) and forgets the reason, so a reload does not show it again.
 */
export function useArrivalReason(): AuthFailureReason {
  const [reason] = useState(readReason);
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    try {
      sessionStorage.removeItem(AUTH_FAILURE_REASON_KEY);
    } catch {
      // storage unavailable: nothing to forget
    }
    const t = sessionToastFor(reason);
    if (t) toast(t);
  }, [reason]);
  return reason;
}
