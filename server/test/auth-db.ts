import { createTokenVault, deriveKey, type TokenVault } from "../auth/token-vault.ts";
import type { Database } from "../db/client.ts";
import { TEST_SECRET_KEY } from "./server.ts";

/** The vault test servers use, so tests can read or plant encrypted columns. */
export function testVault(): TokenVault {
  return createTokenVault([deriveKey(TEST_SECRET_KEY)]);
}

export interface StoredAccount {
  id: string;
  userId: string;
  provider: string;
  status: string;
  accessToken: string;
  refreshToken: string | undefined;
  accessTokenCiphertext: string;
  refreshTokenCiphertext: string | null;
}

/** A mail account row with its tokens decrypted, found by address. */
export async function storedAccount(database: Database, email: string): Promise<StoredAccount> {
  const { rows } = await database.executeSql(
    "select id, user_id, provider, status, access_token_ciphertext, refresh_token_ciphertext from mail_accounts where email = $1",
    [email],
  );
  const row = rows[0] as
    | {
        id: string;
        user_id: string;
        provider: string;
        status: string;
        access_token_ciphertext: string;
        refresh_token_ciphertext: string | null;
      }
    | undefined;
  if (!row) throw new Error(`No mail account for ${email}`);
  const vault = testVault();
  return {
    id: row.id,
    userId: row.user_id,
    provider: row.provider,
    status: row.status,
    accessToken: vault.decrypt(row.access_token_ciphertext, "provider-access-token"),
    refreshToken: row.refresh_token_ciphertext
      ? vault.decrypt(row.refresh_token_ciphertext, "provider-refresh-token")
      : undefined,
    accessTokenCiphertext: row.access_token_ciphertext,
    refreshTokenCiphertext: row.refresh_token_ciphertext,
  };
}
