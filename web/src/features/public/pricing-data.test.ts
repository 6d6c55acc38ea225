import { describe, expect, it } from "vitest";
import { annualDiscountPercent, formatPrice, PERSONAL_PLAN, PROFESSIONAL_PLAN } from "./pricing-data.ts";

describe("pricing data", () => {
  it("holds the spec's prices", () => {
    expect([PERSONAL_PLAN.monthly, PERSONAL_PLAN.annual]).toEqual([2.99, 17.94]);
    expect([PROFESSIONAL_PLAN.monthly, PROFESSIONAL_PLAN.annual]).toEqual([10, 96]);
  });

  it("prints discount labels that match the prices", () => {
    for (const plan of [PERSONAL_PLAN, PROFESSIONAL_PLAN]) {
      expect(plan.annualDiscountLabel).toBe(`-${annualDiscountPercent(plan)}%`);
    }
    expect(annualDiscountPercent(PERSONAL_PLAN)).toBe(50);
    expect(annualDiscountPercent(PROFESSIONAL_PLAN)).toBe(20);
  });

  it("formats dollars with cents only when needed", () => {
    expect(formatPrice(2.99)).toBe("$2.99");
    expect(formatPrice(17.94)).toBe("$17.94");
    expect(formatPrice(10)).toBe("$10");
    expect(formatPrice(96)).toBe("$96");
  });
});
