import type { ToastInput } from "../../components/ui/toast-store.ts";
import type { AuthFailureReason } from "../../lib/storage-keys.ts";

const REASONS: readonly AuthFailureReason[] = ["manual", "session_expired", "token_invalid", "auth_required"];

/** Spec section 2: the reason comes from session storage, default manual. */
export function parseAuthFailureReason(value: string | null | undefined): AuthFailureReason {
  return REASONS.find((r) => r === value) ?? "manual";
}

/** Spec section 8: toasts for a session that ended on its own; none for manual or auth_required. */
export function sessionToastFor(reason: AuthFailureReason): ToastInput | null {
  switch (reason) {
    case "session_expired":
      return {
        title: "Session Expired",
        description: "Your session has expired. Please log in again.",
        variant: "destructive",
      };
    case "token_invalid":
      return {
        title: "Authentication Required",
        description: "Your authentication token is invalid. Please log in again.",
      };
    default:
      return null;
  }
}

export interface LogoutScreen {
  title: string;
  text: string;
  /** manual: Confirm Logout and Cancel; otherwise Log In Again. */
  confirm: boolean;
  goHome: boolean;
}

/** Spec sections 2 and 8: what /logout shows for each reason. */
export function logoutScreenFor(reason: AuthFailureReason): LogoutScreen {
  switch (reason) {
    case "session_expired":
      return {
        title: "Session Expired",
        text: "Your session has expired for security reasons. Please log in again to continue.",
        confirm: false,
        goHome: true,
      };
    case "token_invalid":
      return {
        title: "Authentication Required",
        text: "Your authentication token is no longer valid. Please log in again.",
        confirm: false,
        goHome: true,
      };
    case "auth_required":
      return {
        title: "Login Required",
        text: "You need to be logged in to access this feature.",
        confirm: false,
        goHome: false,
      };
    case "manual":
      return { title: "Log Out", text: "Are you sure you want to log out?", confirm: true, goHome: false };
  }
}
