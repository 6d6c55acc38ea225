import { type RunningEmulator, SEEDED_IDENTITIES, startEmulator } from "../../emulator/server.ts";
import { type Config, DEMO_CLIENTS } from "../config.ts";

/**
 * Demo mode: no real Google or Microsoft credentials, so the provider emulator runs beside the
 * app with the demo clients registered for this app's redirect URIs.
 */
export async function startDemoEmulator(
  config: Config,
  options: { gmailPushUrl?: string } = {},
): Promise<{ emulator: RunningEmulator; banner: string }> {
  const redirectUris = [
    `${config.publicUrl}/auth/callback`,
    `${config.publicUrl}/api/auth/gmail/callback`,
    `${config.publicUrl}/api/auth/outlook/callback`,
    `${config.publicUrl}/api/auth/google/calendar/callback`,
    `${config.publicUrl}/api/auth/outlook/calendar/callback`,
  ];
  const emulator = await startEmulator({
    port: config.demo.emulatorPort,
    host: "127.0.0.1",
    // The admin API (expire tokens, move the clock) is for tests only.
    admin: config.testHooks,
    ...(options.gmailPushUrl ? { mail: { gmailPushUrl: options.gmailPushUrl } } : {}),
    clients: [
      { provider: "google", ...DEMO_CLIENTS.google, redirectUris, name: "Mailwise" },
      { provider: "microsoft", ...DEMO_CLIENTS.microsoft, redirectUris, name: "Mailwise" },
    ],
  });
  const banner = [
    `Demo mode: provider emulator at ${emulator.url} (no real Google or Microsoft credentials configured).`,
    "Demo accounts (pick one on the sign-in page, no password):",
    ...SEEDED_IDENTITIES.map((i) => `  ${i.provider.padEnd(9)} ${i.email}  ${i.name}`),
  ].join("\n");
  return { emulator, banner };
}
