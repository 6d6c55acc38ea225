import { type Bucket, isBucket } from "../../contract/buckets.ts";

/** What the classifier reads of an email: sender, subject, snippet and the optional AI hints. */
export interface ClassifiableEmail {
  from: string;
  subject: string;
  snippet: string;
  aiAnalysis?: {
    isArchived?: boolean;
    bucketCategory?: string | null;
    category?: string | null;
    microsoftCategory?: string | null;
  } | null;
}

const AUTOMATED_SENDER = /no-?reply|notification/i;

// Step 5 cues. Word lists are deliberately small and explicit so each branch is testable.
const SOCIAL_SENDER =
  /facebook|facebookmail|twitter|x\.com|linkedin|instagram|pinterest|reddit|tiktok|snapchat|youtube|meetup|nextdoor|discord|mastodon|quora/i;
const SOCIAL_PHRASE =
  /\b(tagged you|mentioned you|friend request|new follower|followed you|commented on|liked your|sent you a message|connection request|invited you to connect|endorsed you)\b/i;
const NEWSLETTER_CUE =
  /\b(newsletter|digest|weekly roundup|weekly update|monthly update|bulletin|unsubscribe|mailing list|view (it )?in (your )?browser|subscription)\b/i;
const PROMOTION_CUE =
  /\b(sale|discount|\d+% off|% off|coupon|promo( code)?|deal|deals|offer|limited time|free shipping|clearance|save \$?\d+|buy now|black friday|cyber monday)\b/i;
const WORK_KEYWORD =
  /\b(meeting|project|invoice|budget|client|deadline|proposal|contract|quarterly|report|agenda|sprint|standup|stand-up|roadmap|deliverable|stakeholder|payroll|review|onboarding|interview|schedule a call)\b/i;
const WORK_TOOL_SENDER =
  /slack|jira|atlassian|confluence|asana|trello|github|gitlab|bitbucket|notion|zoom|teams\.microsoft|microsoftteams|salesforce|hubspot|zendesk|monday\.com|clickup|basecamp|calendly|docusign|workday|figma/i;
const PERSONAL_CUE =
  /^(re|fwd?|aw):|\b(thanks|thank you|thx|cheers|hope you|how are you|catch up|dinner|birthday|love)\b/i;
// Mailbox providers people use for themselves: mail from these is usually from a person.
const SIMPLE_DOMAIN =
  /@(gmail|googlemail|outlook|hotmail|live|msn|yahoo|ymail|icloud|me|mac|aol|proton|protonmail|pm|gmx|mail|fastmail|zoho|yandex)\.[a-z.]+>?\s*$/i;

function normalise(value: string | null | undefined): string {
  return (value ?? "").trim().toLowerCase();
}

function fromCategory(category: string, from: string): Bucket {
  switch (category) {
    case "personal":
      return AUTOMATED_SENDER.test(from) ? "other" : "personal";
    case "work":
    case "business":
      return "work";
    case "newsletter":
    case "newsletters":
      return "newsletters";
    case "promotions":
    case "marketing":
      return "promotions";
    case "social":
      return "social";
    default:
      return "other";
  }
}

function fromMicrosoftCategory(category: string): Bucket {
  switch (category) {
    case "newsletters":
    case "subscription":
      return "newsletters";
    case "promotions":
    case "marketing":
    case "deals":
      return "promotions";
    case "work":
    case "business":
      return "work";
    case "social":
    case "primary":
      return "personal";
    default:
      return "other";
  }
}

function fromHeuristics(email: ClassifiableEmail): Bucket {
  const from = email.from;
  const text = `${email.subject}\n${email.snippet}`;
  if (SOCIAL_SENDER.test(from) || SOCIAL_PHRASE.test(text)) return "social";
  if (NEWSLETTER_CUE.test(text) || /newsletter|digest|news@|updates@/i.test(from)) return "newsletters";
  if (PROMOTION_CUE.test(text) || /deals@|offers@|promo|marketing@|sales@/i.test(from)) return "promotions";
  if (WORK_KEYWORD.test(text) || WORK_TOOL_SENDER.test(from)) return "work";
  if (PERSONAL_CUE.test(email.subject) || PERSONAL_CUE.test(email.snippet) || SIMPLE_DOMAIN.test(from)) {
    return "personal";
  }
  return "other";
}

/**
 * Spec section 4, "Bucket classification, in order". Returns null for an email the AI marked
 * archived (it is skipped, not bucketed).
 */
export function classifyBucket(email: ClassifiableEmail): Bucket | null {
  const ai = email.aiAnalysis ?? undefined;
  if (ai?.isArchived) return null;
  const bucketCategory = normalise(ai?.bucketCategory);
  if (isBucket(bucketCategory)) return bucketCategory;
  const category = normalise(ai?.category);
  if (category) return fromCategory(category, email.from);
  const microsoftCategory = normalise(ai?.microsoftCategory);
  if (microsoftCategory) return fromMicrosoftCategory(microsoftCategory);
  return fromHeuristics(email);
}
