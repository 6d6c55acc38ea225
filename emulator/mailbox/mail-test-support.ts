import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Provider } from "../identities.ts";
import type { RunningEmulator } from "../server.ts";
import {
  authorizeUrl,
  pkcePair,
  postToken,
  signIn,
  str,
  TEST_CLIENTS,
  TEST_REDIRECT_URI,
  tokenUrl,
} from "../test-support.ts";

export const GMAIL_SCOPES =
  "openid email profile https://www.googleapis.com/auth/gmail.modify https://www.googleapis.com/auth/gmail.send";
export const GRAPH_SCOPES = "openid profile email offline_access User.Read Mail.ReadWrite Mail.Send";

/** Signs in through the emulator's real OAuth flow and returns an access token. */
export async function accessTokenFor(
  emu: RunningEmulator,
  provider: Provider,
  email: string,
  scope = provider === "google" ? GMAIL_SCOPES : GRAPH_SCOPES,
): Promise<string> {
  const client = TEST_CLIENTS[provider];
  const pkce = pkcePair();
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: "code",
    scope,
    state: "mail-test",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
  };
  const redirect = await signIn(authorizeUrl(emu.url, provider, params), { email });
  const token = await postToken(tokenUrl(emu.url, provider), {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code") ?? "",
    code_verifier: pkce.verifier,
    redirect_uri: TEST_REDIRECT_URI,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (token.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(token.body)}`);
  return str(token.body, "access_token");
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A tiny HTTP receiver for push notifications; `respond` decides each answer. */
export async function startReceiver(
  respond: (request: ReceivedRequest) => { status: number; body?: string; contentType?: string } = () => ({
    status: 202,
  }),
): Promise<{ url: string; received: ReceivedRequest[]; close: () => Promise<void>; server: Server }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      const answer = respond(request);
      res.writeHead(answer.status, { "content-type": answer.contentType ?? "text/plain" });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function waitFor<T>(check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("waitFor timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
