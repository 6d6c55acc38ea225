import type { FastifyInstance } from "fastify";
import { type EmulatorContext, emulatorBaseUrl } from "./context.ts";
import { html, sendHtml } from "./http/html.ts";

/** GET / : a plain page for people who open the emulator's URL, listing hosts and demo accounts. */
export function registerIndexPage(app: FastifyInstance, context: EmulatorContext): void {
  app.get("/", (request, reply) => {
    const base = emulatorBaseUrl(context, request);
    const hosts = [
      "accounts.google.com",
      "oauth2.googleapis.com",
      "openidconnect.googleapis.com",
      "www.googleapis.com",
      "login.microsoftonline.com",
      "graph.microsoft.com",
    ].map((host) => html`<li><code>https://${host}</code> → <code>${base}/${host}</code></li>`);
    const people = context.identities
      .list()
      .map((identity) => html`<li>${identity.name} &lt;${identity.email}&gt; (${identity.provider})</li>`);
    const clients = context.clients
      .list()
      .map((client) => html`<li>${client.provider}: <code>${client.clientId}</code></li>`);
    return sendHtml(
      reply,
      200,
      html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mailwise provider emulator</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#f1f3f4;padding:0 .25rem}</style></head>
<body><h1>Mailwise provider emulator</h1>
<p>Each real base URL <code>https://HOST</code> is served under <code>${base}/HOST</code>.</p>
<h2>Hosts</h2><ul>${hosts}</ul>
<h2>Demo accounts</h2><ul>${people}</ul>
<h2>Registered clients</h2><ul>${clients}</ul></body></html>`,
    );
  });
}
