import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/**
 * Runs axe on the current page (WCAG 2.1 A/AA plus best practices) and fails on any serious or
 * critical violation, listing each rule with the first offending elements.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  label = page.url(),
  options: { include?: string } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "best-practice",
  ]);
  // A dialog's check: the page under its overlay is not what is being looked at.
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((v) => v.impact && BLOCKING_IMPACTS.has(v.impact))
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
  expect(blocking, `serious or critical accessibility violations on ${label}`).toEqual([]);
}
