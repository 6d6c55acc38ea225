import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTokenVault, deriveKey, keyIdOf, loadSecretKey, VaultError } from "./token-vault.ts";

const keyA = deriveKey("first secret key, at least thirty-two characters");
const keyB = deriveKey("second secret key, at least thirty-two characters");

describe("token vault", () => {
  const tmpDirs: string[] = [];
  afterAll(async () => {
    for (const dir of tmpDirs) await rm(dir, { recursive: true, force: true });
  });

  it("round-trips and never writes the plaintext", () => {
    const vault = createTokenVault([keyA]);
    const secret = "ya29.a0AfH6SMBsecret-access-token";
    const ct = vault.encrypt(secret, "provider-access-token");
    expect(ct).not.toContain(secret);
    expect(ct.split(".")).toHaveLength(5);
    expect(ct.startsWith(`v1.${keyIdOf(keyA)}.`)).toBe(true);
    expect(vault.decrypt(ct, "provider-access-token")).toBe(secret);
    // A fresh IV each time: equal plaintexts do not give equal ciphertexts.
    expect(vault.encrypt(secret, "provider-access-token")).not.toBe(ct);
  });

  it("rejects a tampered ciphertext, a wrong purpose and an unknown key", () => {
    const vault = createTokenVault([keyA]);
    const ct = vault.encrypt("refresh-me", "provider-refresh-token");
    const parts = ct.split(".");
    const body = Buffer.from(parts[4] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString("base64url");
    expect(() => vault.decrypt(parts.join("."), "provider-refresh-token")).toThrow(VaultError);
    expect(() => vault.decrypt(ct, "provider-access-token")).toThrow(VaultError);
    expect(() => createTokenVault([keyB]).decrypt(ct, "provider-refresh-token")).toThrow(
      /not in the keyring/,
    );
    expect(() => vault.decrypt("plain-text-token", "provider-refresh-token")).toThrow(/format/);
  });

  it("decrypts old ciphertexts after a new primary key is added", () => {
    const old = createTokenVault([keyA]).encrypt("written under A", "provider-refresh-token");
    const rotated = createTokenVault([keyB, keyA]);
    expect(rotated.decrypt(old, "provider-refresh-token")).toBe("written under A");
    const fresh = rotated.encrypt("written under B", "provider-refresh-token");
    expect(fresh.split(".")[1]).toBe(keyIdOf(keyB));
    expect(() => createTokenVault([keyA]).decrypt(fresh, "provider-refresh-token")).toThrow(VaultError);
  });

  it("refuses keys that are not 32 bytes", () => {
    expect(() => createTokenVault([randomBytes(16)])).toThrow(/32 bytes/);
    expect(() => createTokenVault([])).toThrow(VaultError);
  });

  it("uses SECRET_KEY when set, else generates one owner-only key file once", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mailwise-vault-"));
    tmpDirs.push(dir);
    const dataDir = path.join(dir, "nested", "data");
    const fromEnv = await loadSecretKey({
      secretKey: "first secret key, at least thirty-two characters",
      dataDir,
    });
    expect(fromEnv.equals(keyA)).toBe(true);

    const [first, second] = await Promise.all([
      loadSecretKey({ secretKey: undefined, dataDir }),
      loadSecretKey({ secretKey: undefined, dataDir }),
    ]);
    expect(first?.equals(second as Buffer)).toBe(true);
    const file = path.join(dataDir, "secret.key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim().length).toBeGreaterThanOrEqual(43);
    const again = await loadSecretKey({ secretKey: undefined, dataDir });
    expect(again.equals(first as Buffer)).toBe(true);
  });
});
