const GRAPH = "https://graph.microsoft.com/";

/** The OpenID Connect scopes, which Microsoft reports without a resource prefix. */
const OIDC_SCOPES = new Set(["openid", "profile", "email", "offline_access"]);

/** Microsoft's consent-screen wording, keyed by lower-cased scope name (scopes are case-insensitive). */
const DESCRIPTIONS: Record<string, string> = {
  openid: "Sign you in",
  profile: "View your basic profile",
  email: "View your email address",
  offline_access: "Maintain access to data you have given it access to",
  "user.read": "Sign you in and read your profile",
  "mail.read": "Read your mail",
  "mail.readwrite": "Read and write access to your mail",
  "mail.send": "Send mail as you",
  "mailboxsettings.read": "Read your mailbox settings",
  "mailboxsettings.readwrite": "Read and write to your mailbox settings",
  "calendars.read": "Read your calendars",
  "calendars.readwrite": "Have full access to your calendars",
  "contacts.read": "Read your contacts",
  "people.read": "Read your relevant people list",
};

// Graph permission names look like Resource.Access[.Qualifier].
const GRAPH_SCOPE_SYNTAX = /^[A-Za-z]+(\.[A-Za-z]+)+$/;

function bareName(scope: string): string {
  return scope.toLowerCase().startsWith(GRAPH) ? scope.slice(GRAPH.length) : scope;
}

/**
 * Graph scopes come back fully qualified (`https://graph.microsoft.com/Mail.ReadWrite`), OIDC
 * scopes as sent, which is what Microsoft's token responses show.
 */
export function normalizeMicrosoftScopes(scopes: readonly string[]): string[] {
  const out = new Map<string, string>();
  for (const scope of scopes) {
    const name = bareName(scope);
    const lower = name.toLowerCase();
    out.set(lower, OIDC_SCOPES.has(lower) ? lower : `${GRAPH}${name}`);
  }
  return [...out.values()];
}

/** Graph accepts any well-formed permission name it knows; we accept any well-formed one. */
export function unknownMicrosoftScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => {
    const name = bareName(scope);
    return !OIDC_SCOPES.has(name.toLowerCase()) && name !== ".default" && !GRAPH_SCOPE_SYNTAX.test(name);
  });
}

export function describeMicrosoftScope(scope: string): string {
  const name = bareName(scope);
  return DESCRIPTIONS[name.toLowerCase()] ?? `Access ${name}`;
}
