/**
 * Fire-and-forget tasks inside this process, for work that must not hold up a response when no
 * job queue is wired. Failures are logged; `idle()` lets tests and shutdown wait for the rest.
 */
export function createInProcessRunner(log: { error(obj: object, msg: string): void }) {
  const running = new Set<Promise<void>>();
  return {
    run(name: string, task: () => Promise<void>): void {
      const p = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((err: unknown) => log.error({ err, task: name }, "background task failed"))
        .finally(() => running.delete(p));
      running.add(p);
    },
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type InProcessRunner = ReturnType<typeof createInProcessRunner>;
