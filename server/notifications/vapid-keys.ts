import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import webpush from "web-push";
import { z } from "zod";
import type { Config } from "../config.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const fileSchema = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/**
 * The VAPID key pair (RFC 8292) from the environment, or else one generated on first start into
 * `{dataDir}/vapid.json` (owner-only), like the secret key: browsers subscribe with the public
 * key, so it must survive restarts or every subscription would stop working.
 */
export async function loadVapidKeys(config: Pick<Config, "dataDir" | "notifications">): Promise<VapidKeys> {
  if (config.notifications.vapidKeys) return config.notifications.vapidKeys;
  const file = path.join(config.dataDir, "vapid.json");
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // Written aside, then hard-linked into place: link fails if the file exists, so two processes
  // starting together agree on one pair and neither reads a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const parsed = fileSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
  if (!parsed.success)
    throw new Error(
      `${file} does not hold a VAPID key pair; delete it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`,
    );
  return parsed.data;
}
