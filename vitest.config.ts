import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "contract/**/*.test.ts",
      "emulator/**/*.test.ts",
      "scripts/**/*.test.ts",
      "bench/**/*.test.ts",
      "web/src/**/*.test.{ts,tsx}",
    ],
    // One PostgreSQL server per run: TEST_POSTGRES_URL, else 127.0.0.1:5432, else a throwaway one.
    globalSetup: ["server/test/global-setup.ts"],
    pool: "forks",
    // Test files share their worker's loaded modules: importing the server costs about 3.5 s a
    // file, and no file relies on a fresh module state (each builds its own app, database and
    // emulator; the few that touch process.env restore it). Measured: 8.0 min to 6.4 min.
    isolate: false,
    // Two cores: PGlite instances are heavy, so run two files at a time.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
