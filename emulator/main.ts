import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readEmulatorEnv } from "./env.ts";
import { SEEDED_IDENTITIES, startEmulator } from "./server.ts";

export type { RunningEmulator, StartEmulatorOptions } from "./server.ts";
export { startEmulator } from "./server.ts";

/** Entry point: `npx tsx emulator/main.ts`. Configuration comes from EMULATOR_* variables. */
async function main(): Promise<void> {
  const config = readEmulatorEnv();
  const running = await startEmulator({
    port: config.port,
    host: config.host,
    admin: config.admin,
    clients: config.clients,
    logger: true,
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    ...(config.accessTokenTtlSeconds === undefined
      ? {}
      : { accessTokenTtlSeconds: config.accessTokenTtlSeconds }),
  });

  const lines = [
    "",
    `Mailwise provider emulator on ${running.url}`,
    `  Google:    ${running.url}/accounts.google.com/.well-known/openid-configuration`,
    `  Microsoft: ${running.url}/login.microsoftonline.com/common/v2.0/.well-known/openid-configuration`,
    `  Admin API: ${config.admin ? `${running.url}/_admin` : "off (EMULATOR_ADMIN=1 to enable)"}`,
    "  Clients:",
    ...config.clients.map(
      (client) => `    ${client.provider} ${client.clientId} -> ${client.redirectUris.join(", ")}`,
    ),
    "  Demo accounts (pick one on the sign-in page, no password):",
    ...SEEDED_IDENTITIES.map(
      (identity) => `    ${identity.provider.padEnd(9)} ${identity.email}  ${identity.name}`,
    ),
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
