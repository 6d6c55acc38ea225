/**
 * The emulator's idea of "now". Every lifetime (authorization codes, access and refresh tokens,
 * id_token iat/exp, sign-in flows) reads this clock, so a test can jump an hour ahead through the
 * admin API instead of sleeping. It only moves forward, like the real one.
 */
export interface Clock {
  /** Milliseconds since the epoch, including any advance. */
  now(): number;
  /** Whole seconds since the epoch, for JWT claims. */
  nowSeconds(): number;
  advance(seconds: number): void;
  offsetSeconds(): number;
  reset(): void;
}

export function createClock(realNow: () => number = Date.now): Clock {
  let offsetMs = 0;
  const now = () => realNow() + offsetMs;
  return {
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw new RangeError("The emulator clock only moves forward by a finite number of seconds");
      }
      offsetMs += Math.round(seconds * 1000);
    },
    offsetSeconds: () => offsetMs / 1000,
    reset() {
      offsetMs = 0;
    },
  };
}
