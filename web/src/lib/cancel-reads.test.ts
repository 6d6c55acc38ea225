import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { cancelReadsFor, readAgain } from "./cancel-reads.ts";

/** A query function whose answers the test hands out one at a time. */
function answers() {
  const waiting: Array<(value: string) => void> = [];
  let calls = 0;
  return {
    fn: () =>
      new Promise<string>((resolve) => {
        calls += 1;
        waiting.push(resolve);
      }),
    answer: (value: string) => waiting.shift()?.(value),
    calls: () => calls,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("cancelReadsFor", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function watched(key: string[], fn: () => Promise<string>) {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const observer = new QueryObserver(client, { queryKey: key, queryFn: fn });
    const unsubscribe = observer.subscribe(() => {});
    cleanups.push(unsubscribe, () => client.clear());
    return { client, observer };
  }

  it("a plain cancel leaves a first load pending with no fetch (why the helper exists)", async () => {
    const server = answers();
    const { client, observer } = watched(["list", "a"], server.fn);
    await client.cancelQueries({ queryKey: ["list"] });
    server.answer("rows");
    await settle();
    expect(observer.getCurrentResult()).toMatchObject({ status: "pending", fetchStatus: "idle" });
  });

  it("lets a first load finish and names it to be read again", async () => {
    const server = answers();
    const { client, observer } = watched(["list", "a"], server.fn);
    const firstLoads = await cancelReadsFor(client, ["list"]);
    expect(firstLoads).toEqual([["list", "a"]]);
    server.answer("rows before the change");
    await settle();
    expect(observer.getCurrentResult().data).toBe("rows before the change");
    readAgain(client, firstLoads);
    expect(server.calls()).toBe(2);
    server.answer("rows after the change");
    await settle();
    expect(observer.getCurrentResult().data).toBe("rows after the change");
  });

  it("cancels a refetch of loaded data, so its old answer cannot undo an optimistic change", async () => {
    const server = answers();
    const { client, observer } = watched(["list", "a"], server.fn);
    server.answer("loaded");
    await settle();
    void client.refetchQueries({ queryKey: ["list"] });
    expect(observer.getCurrentResult().fetchStatus).toBe("fetching");
    expect(await cancelReadsFor(client, ["list"])).toEqual([]);
    client.setQueryData(["list", "a"], "changed here");
    server.answer("old state from the server");
    await settle();
    expect(observer.getCurrentResult()).toMatchObject({ data: "changed here", fetchStatus: "idle" });
  });
});
