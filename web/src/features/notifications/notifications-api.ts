/**
 * Notifications on the client (issue 38, decision 0075): the setting stored on the server, and
 * this browser's Web Push subscription made with the server's VAPID key.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  NotificationSettings,
  NotificationSettingsPatch,
  VapidKeyResponse,
} from "../../../../contract/notifications.ts";
import { apiRequest } from "../../lib/api.ts";

export const NOTIFICATION_SETTINGS_KEY = ["/api/notifications/settings"] as const;

/** GET /api/notifications/settings. */
export function useNotificationSettings() {
  return useQuery<NotificationSettings>({
    queryKey: NOTIFICATION_SETTINGS_KEY,
    queryFn: ({ signal }) =>
      apiRequest<NotificationSettings>("GET", NOTIFICATION_SETTINGS_KEY[0], undefined, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** PUT /api/notifications/settings with the browser's time zone, so quiet hours follow the person. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation<NotificationSettings, Error, NotificationSettingsPatch>({
    mutationFn: (change) =>
      apiRequest<NotificationSettings>("PUT", NOTIFICATION_SETTINGS_KEY[0], {
        ...change,
        timeZone: browserTimeZone(),
      }),
    onSuccess: (settings) => queryClient.setQueryData(NOTIFICATION_SETTINGS_KEY, settings),
  });
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** "granted" | "denied" | "default", or "unsupported" where the browser has no Notification API. */
export type PermissionState = NotificationPermission | "unsupported";

/**
 * The browser's answer. requestPermission is asked even when `permission` is already decided: it
 * answers at once without a prompt then, and it is the authority where `permission` lags behind
 * (an automated Chromium reports "denied" there for a permission its profile grants).
 */
export async function askPermission(): Promise<PermissionState> {
  if (typeof Notification === "undefined") return "unsupported";
  return Notification.requestPermission();
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes this browser to Web Push and tells the server. Answers why not, in words, when it
 * cannot: without a service worker (not installed yet, or unsupported) notifications still show
 * while a tab is open.
 */
export async function subscribeThisBrowser(): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!("serviceWorker" in navigator) || typeof PushManager === "undefined")
    return { ok: false, reason: "This browser cannot receive notifications while Mailwise is closed." };
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration)
    return {
      ok: false,
      reason: "Notifications will show while Mailwise is open; reload once to get them when it is closed.",
    };
  try {
    const { publicKey } = await apiRequest<VapidKeyResponse>("GET", "/api/notifications/vapid-key");
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      }));
    await apiRequest("POST", "/api/notifications/subscriptions", subscription.toJSON());
    return { ok: true };
  } catch {
    return {
      ok: false,
      reason: "This browser could not subscribe to notifications; they will show while Mailwise is open.",
    };
  }
}

/**
 * Sign-out: this browser stops receiving the person's notifications (the next person to sign in
 * here must not see their senders and subjects). Best effort, never holds the sign-out up long.
 */
export async function forgetThisBrowser(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const work = (async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return;
    await apiRequest(
      "DELETE",
      "/api/notifications/subscriptions",
      { endpoint: subscription.endpoint },
      { on401: "ignore" },
    );
    await subscription.unsubscribe();
  })().catch(() => undefined);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, 2_000))]);
}
