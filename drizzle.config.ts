import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema.ts",
  out: process.env.DRIZZLE_OUT ?? "./server/db/migrations",
});
