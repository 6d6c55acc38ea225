const AUTH = "https://www.googleapis.com/auth/";

/**
 * Scopes Google knows, with the wording of its consent screen. Google rejects any other scope
 * at authorize ("Error 400: invalid_scope"), so an app typo fails here as it would for real.
 */
const DESCRIPTIONS: Record<string, string> = {
  openid: "Associate you with your personal info on Google",
  email: "See your primary Google Account email address",
  [`${AUTH}userinfo.email`]: "See your primary Google Account email address",
  profile: "See your personal info, including any personal info you’ve made publicly available",
  [`${AUTH}userinfo.profile`]:
    "See your personal info, including any personal info you’ve made publicly available",
  "https://mail.google.com/": "Read, compose, send, and permanently delete all your email from Gmail",
  [`${AUTH}gmail.modify`]: "Read, compose, and send emails from your Gmail account",
  [`${AUTH}gmail.readonly`]: "View your email messages and settings",
  [`${AUTH}gmail.send`]: "Send email on your behalf",
  [`${AUTH}gmail.compose`]: "Manage drafts and send emails",
  [`${AUTH}gmail.insert`]: "Add emails into your Gmail mailbox",
  [`${AUTH}gmail.labels`]: "See and edit your email labels",
  [`${AUTH}gmail.metadata`]:
    "View your email message metadata such as labels and headers, but not the email body",
  [`${AUTH}gmail.settings.basic`]: "See, edit, create, or change your email settings and filters in Gmail",
  [`${AUTH}calendar`]:
    "See, edit, share, and permanently delete all the calendars you can access using Google Calendar",
  [`${AUTH}calendar.readonly`]: "See and download any calendar you can access using your Google Calendar",
  [`${AUTH}calendar.events`]: "View and edit events on all your calendars",
  [`${AUTH}calendar.events.readonly`]: "View events on all your calendars",
};

/** Google reports `email` and `profile` back in their URL form in token responses. */
const EXPANSIONS: Record<string, string> = {
  email: `${AUTH}userinfo.email`,
  profile: `${AUTH}userinfo.profile`,
};

export const GOOGLE_EMAIL_SCOPE = `${AUTH}userinfo.email`;
export const GOOGLE_PROFILE_SCOPE = `${AUTH}userinfo.profile`;

export function unknownGoogleScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => DESCRIPTIONS[scope] === undefined);
}

export function describeGoogleScope(scope: string): string {
  return DESCRIPTIONS[scope] ?? scope;
}

export function normalizeGoogleScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((scope) => EXPANSIONS[scope] ?? scope))];
}

export const GOOGLE_SUPPORTED_SCOPES = ["openid", "email", "profile"];
