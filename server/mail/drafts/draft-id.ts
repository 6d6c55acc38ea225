import { DomainError } from "../../http/errors.ts";

/**
 * Our draft id: the account's id, a colon, the provider's draft id (contract/drafts.ts). The
 * provider's part is checked by the adapters (Gmail and Graph id patterns) before any request.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Gmail draft ids ("r-123…") and Graph ids (base64 with - _ + / =); nothing else reaches a provider. */
const PROVIDER_DRAFT_ID = /^[A-Za-z0-9_=+/-]{1,560}$/;

export function draftKey(accountId: string, providerDraftId: string): string {
  return `${accountId}:${providerDraftId}`;
}

/** The parts of an id, or 404 (the same answer as a draft that does not exist). */
export function parseDraftKey(id: string): { accountId: string; providerDraftId: string } {
  const accountId = id.slice(0, 36);
  const providerDraftId = id.slice(37);
  if (!UUID.test(accountId) || id.charAt(36) !== ":" || !PROVIDER_DRAFT_ID.test(providerDraftId))
    throw noSuchDraft();
  return { accountId: accountId.toLowerCase(), providerDraftId };
}

/** The adapters' own id checks (Gmail checkId, Graph checkGraphId): any other id names no draft there. */
const GMAIL_ID = /^[A-Za-z0-9_-]{1,64}$/;
const GRAPH_ID = /^[A-Za-z0-9=_+/-]{1,512}$/;

export function fitsProvider(provider: string, providerDraftId: string): boolean {
  return (provider === "outlook" ? GRAPH_ID : GMAIL_ID).test(providerDraftId);
}

export function noSuchDraft(): DomainError {
  return new DomainError("not_found", "No such draft.");
}
