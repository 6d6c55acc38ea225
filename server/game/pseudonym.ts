import { createHash } from "node:crypto";

/** The words generated names are made of; display-name.ts reserves every pair of them with a number. */
export const ADJECTIVES = [
  "Swift",
  "Calm",
  "Bright",
  "Brave",
  "Clever",
  "Steady",
  "Nimble",
  "Quiet",
  "Bold",
  "Keen",
  "Lucky",
  "Sunny",
  "Mellow",
  "Witty",
  "Zesty",
  "Gentle",
];
export const ANIMALS = [
  "Otter",
  "Falcon",
  "Panda",
  "Lynx",
  "Heron",
  "Fox",
  "Dolphin",
  "Badger",
  "Koala",
  "Raven",
  "Tiger",
  "Owl",
  "Puffin",
  "Gecko",
  "Bison",
  "Marten",
];

/**
 * The leaderboard name of someone who never chose one: stable, derived from the user id only,
 * so it cannot reveal an email address or a real name (decision 0024).
 */
export function pseudonym(userId: string): string {
  const digest = createHash("sha256").update(`mailwise-player:${userId}`).digest();
  const adjective = ADJECTIVES[(digest[0] ?? 0) % ADJECTIVES.length];
  const animal = ANIMALS[(digest[1] ?? 0) % ANIMALS.length];
  const number = (((digest[2] ?? 0) << 8) | (digest[3] ?? 0)) % 1000;
  return `${adjective} ${animal} ${number}`;
}
