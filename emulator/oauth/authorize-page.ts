import { html, rawHtml, type SafeHtml } from "../http/html.ts";
import type { Identity, Provider } from "../identities.ts";

/**
 * Server-rendered sign-in pages: account chooser, consent, error. Plain forms and real buttons,
 * no scripts or external assets, so browser tests can target "Allow", "Cancel" and each account
 * by its email address, and pages work offline.
 */

const STYLE = rawHtml(`
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1f1f1f; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: #f0f4f9; padding: 1rem; }
body.microsoft { background: #f2f2f2; }
main { background: #fff; width: min(100%, 30rem); padding: 2.25rem 2.25rem 2rem; border-radius: 1.75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
body.microsoft main { border-radius: 0; box-shadow: 0 2px 6px rgb(0 0 0 / 0.2); }
.logo { display: flex; align-items: center; gap: 0.5rem; font-size: 1.3rem; font-weight: 600; }
.g1 { color: #4285f4; } .g2 { color: #ea4335; } .g3 { color: #fbbc05; } .g4 { color: #34a853; }
.squares { display: grid; grid-template-columns: 0.65rem 0.65rem; gap: 0.1rem; }
.squares span { width: 0.65rem; height: 0.65rem; }
.s1 { background: #f25022; } .s2 { background: #7fba00; } .s3 { background: #00a4ef; } .s4 { background: #ffb900; }
.ms-name { color: #5e5e5e; }
.emulator { margin: 0.4rem 0 0; font-size: 0.75rem; letter-spacing: 0.04em; text-transform: uppercase; color: #5f6368; }
h1 { font-size: 1.55rem; font-weight: 400; margin: 1.25rem 0 0.4rem; line-height: 1.3; }
.sub { margin: 0; color: #444746; }
.chip { display: inline-flex; align-items: center; gap: 0.5rem; margin-top: 0.9rem; padding: 0.25rem 0.75rem 0.25rem 0.25rem; border: 1px solid #c4c7c5; border-radius: 999px; font-size: 0.9rem; }
.accounts { list-style: none; padding: 0; margin: 1.5rem 0 0; border-top: 1px solid #e3e3e3; }
.account { display: flex; width: 100%; gap: 0.85rem; align-items: center; padding: 0.8rem 0.6rem; background: none; border: 0; border-bottom: 1px solid #e3e3e3; font: inherit; text-align: left; cursor: pointer; color: inherit; }
.account:hover { background: #f1f5fe; }
.account:focus-visible, button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.account.hinted { background: #e8f0fe; }
.who { display: flex; flex-direction: column; }
.who .email { font-size: 0.85rem; color: #444746; }
.avatar { width: 2rem; height: 2rem; border-radius: 50%; background: var(--accent); color: #fff; display: grid; place-items: center; font-size: 0.8rem; font-weight: 600; flex: none; }
.notice { margin: 1rem 0 0; padding: 0.6rem 0.8rem; background: #fef7e0; border-radius: 0.5rem; font-size: 0.9rem; }
.scopes { margin: 1rem 0 0; padding: 0; list-style: none; border-top: 1px solid #e3e3e3; }
.scopes li { padding: 0.75rem 0.25rem; border-bottom: 1px solid #e3e3e3; }
.fine { font-size: 0.85rem; color: #444746; margin: 1.25rem 0 0; }
.actions { display: flex; justify-content: flex-end; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.75rem; }
.actions .switch { margin-right: auto; }
button.primary, button.secondary, button.link { font: inherit; font-weight: 500; cursor: pointer; padding: 0.6rem 1.5rem; border-radius: 999px; }
body.microsoft button.primary, body.microsoft button.secondary { border-radius: 0; }
button.primary { background: var(--accent); color: #fff; border: 1px solid var(--accent); }
button.secondary { background: #fff; color: var(--accent); border: 1px solid #c4c7c5; }
button.link { background: none; border: 0; color: var(--accent); padding-left: 0; padding-right: 0; }
.error-code { font-size: 1.05rem; font-weight: 600; margin: 1rem 0 0.25rem; }
dl { margin: 1.25rem 0 0; font-size: 0.85rem; word-break: break-all; }
dt { font-weight: 600; margin-top: 0.5rem; }
dd { margin: 0; color: #444746; }
`);

const BRAND_TEXT = {
  google: {
    chooseTitle: "Choose an account",
    consentTitle: (app: string) => `${app} wants access to your Google Account`,
    consentIntro: (app: string) => `This will allow ${app} to:`,
    trust: (app: string) =>
      `Make sure you trust ${app}. You may be sharing sensitive info with this site or app. You can always see or remove access in your Google Account.`,
    errorTitle: (app: string | undefined) =>
      app === undefined
        ? "Access blocked: Authorization Error"
        : `Access blocked: ${app}’s request is invalid`,
  },
  microsoft: {
    chooseTitle: "Pick an account",
    consentTitle: () => "Let this app access your info?",
    consentIntro: (app: string) => `${app} needs your permission to:`,
    trust: (app: string) =>
      `Accepting these permissions means that you allow ${app} to use your data as specified in its terms of service and privacy statement. You can change these permissions at https://microsoft.com/consent.`,
    errorTitle: () => "Sorry, but we’re having trouble signing you in.",
  },
} as const;

function logo(provider: Provider): SafeHtml {
  if (provider === "google") {
    return html`<div class="logo" aria-label="Google"><span><span class="g1">G</span><span class="g2">o</span><span class="g3">o</span><span class="g1">g</span><span class="g4">l</span><span class="g2">e</span></span></div>`;
  }
  return html`<div class="logo" aria-label="Microsoft"><span class="squares" aria-hidden="true"><span class="s1"></span><span class="s2"></span><span class="s3"></span><span class="s4"></span></span><span class="ms-name">Microsoft</span></div>`;
}

function layout(provider: Provider, title: string, body: SafeHtml): SafeHtml {
  const accent = provider === "google" ? "#0b57d0" : "#0067b8";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE} :root { --accent: ${rawHtml(accent)}; }</style>
</head>
<body class="${provider}">
<main>
${logo(provider)}
<p class="emulator">Mailwise provider emulator</p>
${body}
</main>
</body>
</html>`;
}

function initials(identity: Identity): string {
  return `${identity.givenName.charAt(0)}${identity.familyName.charAt(0)}`.toUpperCase() || "?";
}

export interface ChooserPageInput {
  provider: Provider;
  appName: string;
  identities: readonly Identity[];
  /** The login_hint's identity: listed first and focused. */
  hintedId: string | undefined;
  /** A login_hint that matched nobody, echoed so testers see why nothing is preselected. */
  unmatchedHint: string | undefined;
  flow: string;
  action: string;
}

export function chooserPage(input: ChooserPageInput): SafeHtml {
  const text = BRAND_TEXT[input.provider];
  const ordered = [...input.identities].sort(
    (a, b) => Number(b.id === input.hintedId) - Number(a.id === input.hintedId),
  );
  const accounts = ordered.map((identity) => {
    const hinted = identity.id === input.hintedId;
    return html`<li><button type="submit" name="identity" value="${identity.id}" class="account${hinted ? " hinted" : ""}"${rawHtml(hinted ? " autofocus" : "")}><span class="avatar" aria-hidden="true">${initials(identity)}</span><span class="who"><strong>${identity.name}</strong><span class="email">${identity.email}</span></span></button></li>`;
  });
  const notice =
    input.unmatchedHint === undefined
      ? html``
      : html`<p class="notice">No demo account matches ${input.unmatchedHint}.</p>`;
  return layout(
    input.provider,
    `Sign in - ${input.appName}`,
    html`<h1>${text.chooseTitle}</h1>
<p class="sub">to continue to <strong>${input.appName}</strong></p>
${notice}
<form method="post" action="${input.action}">
<input type="hidden" name="flow" value="${input.flow}">
<ul class="accounts">${accounts}</ul>
</form>`,
  );
}

export interface ConsentPageInput {
  provider: Provider;
  appName: string;
  identity: Identity;
  scopeDescriptions: readonly string[];
  flow: string;
  action: string;
}

export function consentPage(input: ConsentPageInput): SafeHtml {
  const text = BRAND_TEXT[input.provider];
  const scopes = input.scopeDescriptions.map((description) => html`<li>${description}</li>`);
  return layout(
    input.provider,
    `Consent - ${input.appName}`,
    html`<h1>${text.consentTitle(input.appName)}</h1>
<div class="chip"><span class="avatar" aria-hidden="true">${initials(input.identity)}</span><span>${input.identity.email}</span></div>
<p class="sub" style="margin-top:1.25rem">${text.consentIntro(input.appName)}</p>
<ul class="scopes" aria-label="Requested permissions">${scopes}</ul>
<p class="fine">${text.trust(input.appName)}</p>
<form method="post" action="${input.action}">
<input type="hidden" name="flow" value="${input.flow}">
<div class="actions">
<button type="submit" name="decision" value="switch" class="link switch">Use another account</button>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>`,
  );
}

export interface ErrorPageInput {
  provider: Provider;
  appName: string | undefined;
  status: number;
  error: string;
  message: string;
  details: ReadonlyArray<readonly [string, string]>;
}

export function errorPage(input: ErrorPageInput): SafeHtml {
  const text = BRAND_TEXT[input.provider];
  const details = input.details.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`);
  const code = input.provider === "google" ? `Error ${input.status}: ${input.error}` : input.error;
  return layout(
    input.provider,
    "Error",
    html`<h1>${text.errorTitle(input.appName)}</h1>
<p class="error-code" role="alert">${code}</p>
<p class="sub">${input.message}</p>
${details.length > 0 ? html`<dl aria-label="Request details">${details}</dl>` : html``}`,
  );
}
