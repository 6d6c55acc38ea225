import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Sentiment from "sentiment";
import { describe, expect, it } from "vitest";
import { parseText } from "./nlp.ts";
import { analyzeSentiment } from "./sentiment.ts";

/**
 * Regression guard for the sentiment component: a fixed subset of the HELD-OUT sets (amazon and
 * imdb; the weights were tuned on yelp) must stay clearly above the AFINN baseline on the same
 * sentences. Full figures: npx tsx bench/ai/sentiment.ts.
 */
function subset(name: string, n: number): Array<{ text: string; label: number }> {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve("sentiment/package.json")), "test", "fixtures");
  const rows = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Array<{
    text: string;
    class: number;
  }>;
  return rows.slice(0, n).map((r) => ({ text: r.text, label: r.class }));
}

describe("sentiment regression", () => {
  const afinn = new Sentiment();
  for (const name of ["amazon", "imdb"]) {
    it(`beats AFINN on the first 250 ${name} sentences`, () => {
      const rows = subset(name, 250);
      let local = 0;
      let baseline = 0;
      for (const row of rows) {
        if ((analyzeSentiment(row.text, parseText(row.text)).score > 0 ? 1 : 0) === row.label) local++;
        if ((afinn.analyze(row.text).score > 0 ? 1 : 0) === row.label) baseline++;
      }
      // Floors: AFINN on the same subset plus 2 points, and an absolute 78%.
      expect(local / rows.length).toBeGreaterThanOrEqual(baseline / rows.length + 0.02);
      expect(local / rows.length).toBeGreaterThanOrEqual(0.78);
    });
  }

  it("labels clear cases and leaves matter-of-fact text neutral", () => {
    const label = (t: string) => analyzeSentiment(t, parseText(t)).label;
    expect(label("This is great, thank you so much!")).toBe("positive");
    expect(label("The product broke after two days and support was useless.")).toBe("negative");
    expect(label("The meeting is at 3pm in room 4.")).toBe("neutral");
    expect(label("The food was good but the service was terrible.")).toBe("negative");
  });
});
