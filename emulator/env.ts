import { z } from "zod";
import { type ClientRegistration, clientRegistrationSchema } from "./oauth/clients.ts";

export const DEFAULT_REDIRECT_URIS = [
  "http://localhost:3000/auth/callback",
  "http://localhost:3000/api/auth/gmail/callback",
  "http://localhost:3000/api/auth/outlook/callback",
];

/** The demo clients the app's demo configuration uses when EMULATOR_CLIENTS_JSON is unset. */
export function demoClients(redirectUris: readonly string[]): ClientRegistration[] {
  return [
    {
      provider: "google",
      clientId: "mailwise-demo-google",
      clientSecret: "mailwise-demo-google-secret",
      redirectUris: [...redirectUris],
      name: "Mailwise",
    },
    {
      provider: "microsoft",
      clientId: "mailwise-demo-microsoft",
      clientSecret: "mailwise-demo-microsoft-secret",
      redirectUris: [...redirectUris],
      name: "Mailwise",
    },
  ];
}

// Unset and empty variables mean the same: use the default.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const envSchema = z.object({
  EMULATOR_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  EMULATOR_HOST: optional(z.string()),
  EMULATOR_ADMIN: optional(z.enum(["0", "1", "true", "false"])),
  EMULATOR_PUBLIC_URL: optional(z.url()),
  EMULATOR_ACCESS_TOKEN_TTL_SECONDS: optional(z.coerce.number().int().positive()),
  EMULATOR_CLIENTS_JSON: optional(z.string()),
  EMULATOR_REDIRECT_URIS: optional(z.string()),
});

export interface EmulatorEnvConfig {
  port: number;
  host: string;
  admin: boolean;
  publicUrl: string | undefined;
  accessTokenTtlSeconds: number | undefined;
  clients: ClientRegistration[];
}

/** Reads the emulator's environment; invalid values throw with the variable's name. */
export function readEmulatorEnv(env: NodeJS.ProcessEnv = process.env): EmulatorEnvConfig {
  const parsed = envSchema.parse(env);
  let clients: ClientRegistration[];
  if (parsed.EMULATOR_CLIENTS_JSON !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(parsed.EMULATOR_CLIENTS_JSON);
    } catch {
      throw new Error("EMULATOR_CLIENTS_JSON is not valid JSON");
    }
    const result = z.array(clientRegistrationSchema).safeParse(json);
    if (!result.success)
      throw new Error(`EMULATOR_CLIENTS_JSON is invalid: ${z.prettifyError(result.error)}`);
    clients = result.data;
  } else {
    const redirectUris =
      parsed.EMULATOR_REDIRECT_URIS?.split(",")
        .map((uri) => uri.trim())
        .filter((uri) => uri !== "") ?? DEFAULT_REDIRECT_URIS;
    clients = demoClients(redirectUris);
  }
  return {
    port: parsed.EMULATOR_PORT ?? 4010,
    host: parsed.EMULATOR_HOST ?? "127.0.0.1",
    admin: parsed.EMULATOR_ADMIN === "1" || parsed.EMULATOR_ADMIN === "true",
    publicUrl: parsed.EMULATOR_PUBLIC_URL,
    accessTokenTtlSeconds: parsed.EMULATOR_ACCESS_TOKEN_TTL_SECONDS,
    clients,
  };
}
