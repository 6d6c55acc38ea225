import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server every machine here runs; tests make a throwaway database on it per run. */
export const TEST_POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? "postgres://root@127.0.0.1:5432/postgres";

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a unique name; drop() removes it even if connections linger. */
export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `mailwise_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
