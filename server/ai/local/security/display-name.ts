import type { SecurityReason } from "../../../../contract/ai.ts";
import { ruleTable } from "../rules/rule-table.ts";
import { BRANDS, isBrandDomain } from "./brands.ts";
import { registrableDomain } from "./domains.ts";
import { addressInDisplayName, relayService } from "./relays.ts";

const rules = ruleTable("security");

/**
 * Display-name spoofing: the name people read ("PayPal Support", "ceo@acme.com") says one
 * sender while the address says another.
 */

const SERVICE_WORD = rules.regex("service-word");

export function checkDisplayName(name: string, fromAddress: string): SecurityReason[] {
  const reasons: SecurityReason[] = [];
  const display = name.trim();
  if (!display) return reasons;
  const fromHost = fromAddress.slice(fromAddress.lastIndexOf("@") + 1).toLowerCase();
  const fromDomain = registrableDomain(fromHost);

  const relay = relayService(fromHost);
  const embedded = addressInDisplayName(display, relay !== null);
  const embeddedDomain = embedded ? registrableDomain(embedded.slice(embedded.lastIndexOf("@") + 1)) : "";
  // Through a forwarding service the name carries the original sender on purpose: say so calmly,
  // and judge a brand in the name against that original sender's domain instead.
  const senderDomain = relay && embeddedDomain ? embeddedDomain : fromDomain;
  if (relay) {
    reasons.push({
      code: "relayed_sender",
      severity: "info",
      message: `This message was forwarded by ${relay}${embedded ? `; the original sender is ${embedded}` : ""}.`,
    });
  } else if (embedded && embeddedDomain !== fromDomain) {
    reasons.push({
      code: "display_name_address_mismatch",
      severity: "danger",
      message: `The sender name shows ${embedded} but the mail comes from ${fromAddress}.`,
    });
  }

  const words = display
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const squashed = words.join("");
  for (const brand of BRANDS) {
    const named = brand.words.some((w) => words.includes(w) || (w.length >= 6 && squashed.includes(w)));
    if (!named) continue;
    const exactlyBrand = words.join(" ") === brand.name.toLowerCase() || brand.words.includes(squashed);
    if (!exactlyBrand && !SERVICE_WORD.test(display)) continue;
    if (isBrandDomain(brand, senderDomain)) continue;
    reasons.push({
      code: "display_name_brand_mismatch",
      severity: "warning",
      message: `The sender calls itself "${display}" but writes from ${senderDomain || "an unknown domain"}, which is not ${brand.name}'s.`,
    });
    break;
  }
  return reasons;
}
