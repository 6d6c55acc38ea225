/**
 * The server's idea of "now". Every expiry decision (sessions, sign-in states, provider access
 * tokens) reads this clock instead of Date.now(), so tests can jump a month ahead through the
 * test-only hook instead of sleeping. It only moves forward, like a real clock.
 */
export interface Clock {
  now(): Date;
  nowMs(): number;
  advance(seconds: number): void;
}

export function createClock(realNow: () => number = Date.now): Clock {
  let offsetMs = 0;
  const nowMs = () => realNow() + offsetMs;
  return {
    nowMs,
    now: () => new Date(nowMs()),
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw new RangeError("The clock only moves forward by a finite number of seconds");
      }
      offsetMs += Math.round(seconds * 1000);
    },
  };
}
