import { expect, it } from "vitest";
import { dismissToast, itemsForTest, subscribeForTest, toast, toastWhenFree } from "./toast-store.ts";

it("a badge toast waits for the outcome toast on screen instead of replacing it", () => {
  const shown: string[] = [];
  subscribeForTest(() =>
    shown.push(
      itemsForTest()
        .map((t) => `${t.title}:${t.open}`)
        .join(","),
    ),
  );
  const error = toast({ title: "Error", description: "Failed to star the email", variant: "destructive" });
  toastWhenFree({ title: "Badge earned: Clean Sweep" });
  expect(itemsForTest().map((t) => t.title)).toEqual(["Error"]);
  dismissToast(error);
  expect(
    itemsForTest()
      .filter((t) => t.open)
      .map((t) => t.title),
  ).toEqual(["Badge earned: Clean Sweep"]);
  // With nothing on screen it shows at once.
  const badge = itemsForTest()[0]?.id ?? 0;
  dismissToast(badge);
  toastWhenFree({ title: "Badge earned: Early Bird" });
  expect(
    itemsForTest()
      .filter((t) => t.open)
      .map((t) => t.title),
  ).toEqual(["Badge earned: Early Bird"]);
  expect(shown.length).toBeGreaterThan(0);
});
