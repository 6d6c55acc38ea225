import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Seals the sign-in flow (the validated authorization request and, later, the chosen identity)
 * into a hidden form field. Each browser tab carries its own flow, so parallel sign-ins in e2e
 * tests never share server-side state, and the HMAC stops a page from swapping in another
 * client's redirect_uri between steps.
 */
export interface FlowSealer {
  seal(payload: unknown): string;
  /** The payload, or undefined when the value was not sealed by this emulator instance. */
  open(sealed: string): unknown;
}

export function createFlowSealer(secret: Buffer = randomBytes(32)): FlowSealer {
  const mac = (data: string) => createHmac("sha256", secret).update(data).digest();
  return {
    seal(payload) {
      const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
      return `${data}.${mac(data).toString("base64url")}`;
    },
    open(sealed) {
      const [data, signature, extra] = sealed.split(".");
      if (data === undefined || signature === undefined || extra !== undefined) return undefined;
      const expected = mac(data);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        return JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
