/** Spec section 3: the six smart buckets, in display order, with their titles and empty texts. */
export const BUCKETS = ["personal", "work", "newsletters", "promotions", "social", "other"] as const;
export type Bucket = (typeof BUCKETS)[number];

export const BUCKET_TITLES: Record<Bucket, string> = {
  personal: "Personal Emails",
  work: "Work Emails",
  newsletters: "Newsletters",
  promotions: "Promotions",
  social: "Social",
  other: "Other",
};

export const BUCKET_EMPTY_TEXTS: Record<Bucket, string> = {
  personal: "No personal emails",
  work: "No work emails",
  newsletters: "No newsletters",
  promotions: "No promotions",
  social: "No social emails",
  other: "No other emails",
};

export function isBucket(value: unknown): value is Bucket {
  return typeof value === "string" && (BUCKETS as readonly string[]).includes(value);
}
