import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";

/**
 * AES-256-GCM encryption for secrets at rest (provider tokens, PKCE verifiers).
 *
 * Ciphertext format: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, all base64url. `v1` is the format
 * version; keyId names the key, so a new key can become primary while rows written under an
 * older key still decrypt until they are rewritten. The purpose string is bound as GCM
 * additional data, so a ciphertext copied into another column will not decrypt.
 */
export interface TokenVault {
  encrypt(plaintext: string, purpose: VaultPurpose): string;
  decrypt(ciphertext: string, purpose: VaultPurpose): string;
}

export type VaultPurpose = "provider-access-token" | "provider-refresh-token" | "pkce-verifier";

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class VaultError extends Error {
  override name = "VaultError";
}

/** A 32-byte key derived from any secret string; HKDF makes a short or non-uniform secret safe to use. */
export function deriveKey(secret: string | Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "mailwise", "mailwise token vault v1", 32));
}

/** A short, public name for a key: it must not reveal the key, only tell keys apart. */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update("mailwise key id").update(key).digest("base64url").slice(0, 8);
}

/** A keyring whose first key encrypts; every key can decrypt. */
export function createTokenVault(keys: readonly Buffer[]): TokenVault {
  const [primary] = keys;
  if (!primary) throw new VaultError("The token vault needs at least one key");
  const ring = new Map<string, Buffer>();
  for (const key of keys) {
    if (key.length !== 32) throw new VaultError("Token vault keys must be 32 bytes");
    ring.set(keyIdOf(key), key);
  }
  const primaryId = keyIdOf(primary);

  return {
    encrypt(plaintext, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", primary, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(purpose));
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        FORMAT,
        primaryId,
        iv.toString("base64url"),
        tag.toString("base64url"),
        ct.toString("base64url"),
      ].join(".");
    },
    decrypt(ciphertext, purpose) {
      const parts = ciphertext.split(".");
      if (parts.length !== 5 || parts[0] !== FORMAT) throw new VaultError("Unrecognised ciphertext format");
      const [, keyId = "", iv = "", tag = "", ct = ""] = parts;
      const key = ring.get(keyId);
      if (!key) throw new VaultError("Ciphertext was written with a key that is not in the keyring");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      try {
        return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        throw new VaultError("Ciphertext failed authentication");
      }
    },
  };
}

/**
 * The key from SECRET_KEY, or else one generated on first start into `{dataDir}/secret.key`
 * (owner-only), so a default install encrypts without any setup and keeps working across restarts.
 */
export async function loadSecretKey(config: Pick<Config, "secretKey" | "dataDir">): Promise<Buffer> {
  if (config.secretKey) return deriveKey(config.secretKey);
  const file = path.join(config.dataDir, "secret.key");
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // Written aside, then hard-linked into place: link fails if the file exists, so two processes
  // starting together agree on one key and neither can read a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const secret = (await readFile(file, "utf8")).trim();
  if (secret.length < 32)
    throw new VaultError(`${file} is too short to be a key; delete it or set SECRET_KEY`);
  return deriveKey(secret);
}
