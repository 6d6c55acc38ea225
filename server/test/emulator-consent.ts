/**
 * Clicks through a provider's sign-in pages over plain HTTP, as a browser would: the account
 * chooser, then the consent screen, then the redirect back to the app. API tests use it to get
 * real authorization codes without a browser.
 */

function unescapeHtml(text: string): string {
  return text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

function formOf(page: string, pageUrl: string): { action: string; flow: string } {
  const action = /<form method="post" action="([^"]*)"/.exec(page)?.[1];
  const flow = /<input type="hidden" name="flow" value="([^"]*)"/.exec(page)?.[1];
  if (action === undefined || flow === undefined) throw new Error(`No sign-in form on the page:\n${page}`);
  return { action: new URL(unescapeHtml(action), pageUrl).href, flow: unescapeHtml(flow) };
}

function accountButton(page: string, email: string): string {
  for (const m of page.matchAll(
    /<button type="submit" name="identity" value="([^"]*)"[^>]*>([\s\S]*?)<\/button>/g,
  )) {
    if (m[1] !== undefined && m[2]?.includes(email)) return unescapeHtml(m[1]);
  }
  throw new Error(`The account chooser does not list ${email}`);
}

async function submit(action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

/**
 * Picks `email` on the chooser, answers the consent screen with `decision`, and returns where
 * the provider sends the browser back (the app's redirect_uri with code and state, or an error).
 */
export async function consentAtEmulator(
  authUrl: string,
  email: string,
  decision: "allow" | "cancel" = "allow",
): Promise<URL> {
  const chooser = await fetch(authUrl, { redirect: "manual" });
  const chooserPage = await chooser.text();
  if (chooser.status !== 200) throw new Error(`authorize answered ${chooser.status}:\n${chooserPage}`);
  const picked = formOf(chooserPage, authUrl);
  const consent = await submit(picked.action, {
    flow: picked.flow,
    identity: accountButton(chooserPage, email),
  });
  const consentPage = await consent.text();
  if (consent.status !== 200) throw new Error(`account chooser answered ${consent.status}:\n${consentPage}`);
  const answer = formOf(consentPage, picked.action);
  const back = await submit(answer.action, { flow: answer.flow, decision });
  const location = back.headers.get("location");
  if (back.status !== 302 || location === null) {
    throw new Error(`consent answered ${back.status}:\n${await back.text()}`);
  }
  return new URL(location, answer.action);
}
