import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "contract/**/*.test.ts",
      "emulator/**/*.test.ts",
      "scripts/**/*.test.ts",
      "web/src/**/*.test.{ts,tsx}",
    ],
    pool: "forks",
    // Two cores: PGlite instances are heavy, so run two files at a time.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
