import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "./server-flags.mjs";

describe("server node flags", () => {
  it("npm start sets every variable and passes every flag to node before the launcher", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      scripts: Record<string, string>;
    };
    const env = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);
    expect(pkg.scripts.start).toBe(
      `${env.join(" ")} node ${SERVER_NODE_FLAGS.join(" ")} scripts/build/start.mjs --role=all`,
    );
  });
});
