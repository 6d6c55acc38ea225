import { createHash } from "node:crypto";

export type Provider = "google" | "microsoft";

/** A person who can sign in at the emulator's account chooser. */
export interface Identity {
  readonly provider: Provider;
  /**
   * Google: the `sub` (21 digits). Microsoft: the personal-account id that Graph returns as
   * `/me.id` (16 hex digits); the id_token's `oid` is derived from it as Microsoft does.
   */
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly givenName: string;
  readonly familyName: string;
}

export interface IdentityInput {
  provider: Provider;
  email: string;
  name: string;
  givenName?: string | undefined;
  familyName?: string | undefined;
  /** Omit to derive a stable id from the email address. */
  id?: string | undefined;
}

/** Personal Microsoft accounts all live in this tenant; real id_tokens carry it as `tid`. */
export const MICROSOFT_CONSUMER_TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad";

function seed(
  provider: Provider,
  id: string,
  email: string,
  givenName: string,
  familyName: string,
): Identity {
  return Object.freeze({ provider, id, email, name: `${givenName} ${familyName}`, givenName, familyName });
}

/** Demo people, identical on every start so screenshots, fixtures and e2e tests can name them. */
export const SEEDED_IDENTITIES: readonly Identity[] = Object.freeze([
  seed("google", "108214679530458627391", "alex.morgan@gmail.com", "Alex", "Morgan"),
  seed("google", "112675093481726354018", "priya.shah@gmail.com", "Priya", "Shah"),
  seed("google", "104938271650384712965", "sam.taylor@gmail.com", "Sam", "Taylor"),
  seed("microsoft", "3c9f1b2a7d4e8f60", "jordan.lee@outlook.com", "Jordan", "Lee"),
  seed("microsoft", "a41d7e09b2c5f318", "casey.kim@outlook.com", "Casey", "Kim"),
]);

/** Personal accounts' object id is the account id padded into a GUID, as Microsoft issues it. */
export function microsoftObjectId(id: string): string {
  const hex = id.toLowerCase().padStart(16, "0");
  return `00000000-0000-0000-${hex.slice(0, 4)}-${hex.slice(4, 16)}`;
}

/**
 * Microsoft's v2 `sub` is pairwise: the same person gets a different sub in each app. Apps that
 * key users by sub across two client ids break against the real service, so we reproduce it.
 */
export function microsoftPairwiseSub(id: string, clientId: string): string {
  return createHash("sha256").update(`${clientId}:${id}`).digest("base64url");
}

function derivedId(provider: Provider, email: string): string {
  const digest = createHash("sha256").update(`${provider}:${email.toLowerCase()}`).digest();
  if (provider === "microsoft") return digest.subarray(0, 8).toString("hex");
  // Google subs are 21 decimal digits starting with 1.
  return `1${BigInt(`0x${digest.subarray(0, 10).toString("hex")}`)
    .toString()
    .padStart(20, "0")
    .slice(0, 20)}`;
}

export class IdentityConflictError extends Error {
  readonly code = "identity_exists";
}

/** The seeded people plus any a test added; reset() forgets the added ones. */
export class IdentityDirectory {
  readonly #seeded: readonly Identity[];
  #added: Identity[] = [];

  constructor(seeded: readonly Identity[] = SEEDED_IDENTITIES) {
    this.#seeded = seeded;
  }

  list(provider?: Provider): Identity[] {
    const all = [...this.#seeded, ...this.#added];
    return provider === undefined ? all : all.filter((identity) => identity.provider === provider);
  }

  find(provider: Provider, id: string): Identity | undefined {
    return this.list(provider).find((identity) => identity.id === id);
  }

  /** Email addresses compare case-insensitively, as both providers treat them. */
  findByEmail(email: string, provider?: Provider): Identity[] {
    const wanted = email.toLowerCase();
    return this.list(provider).filter((identity) => identity.email.toLowerCase() === wanted);
  }

  add(input: IdentityInput): Identity {
    const id = input.id ?? derivedId(input.provider, input.email);
    if (this.findByEmail(input.email, input.provider).length > 0 || this.find(input.provider, id)) {
      throw new IdentityConflictError(`A ${input.provider} identity with that email or id already exists`);
    }
    const [first = input.name, ...rest] = input.name.trim().split(/\s+/);
    const identity: Identity = Object.freeze({
      provider: input.provider,
      id,
      email: input.email,
      name: input.name,
      givenName: input.givenName ?? first,
      familyName: input.familyName ?? rest.join(" "),
    });
    this.#added.push(identity);
    return identity;
  }

  reset(): void {
    this.#added = [];
  }
}
