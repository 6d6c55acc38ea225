import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "./context.ts";
import { escapeHtml } from "./http/html.ts";
import type { Identity } from "./identities.ts";

const COLOURS = ["#1a73e8", "#d93025", "#188038", "#e37400", "#9334e6", "#007b83", "#c5221f", "#5f6368"];

/**
 * Google's `picture` points at lh3.googleusercontent.com; we serve initials as SVG under the same
 * host prefix, so the app can show avatars without any request leaving the machine.
 */
export function googlePictureUrl(baseUrl: string, identity: Identity): string {
  return `${baseUrl}/lh3.googleusercontent.com/a/${identity.id}=s96-c`;
}

function avatarSvg(identity: Identity): string {
  const digest = createHash("sha256").update(identity.id).digest();
  const colour = COLOURS[(digest[0] ?? 0) % COLOURS.length] ?? "#1a73e8";
  const initials = escapeHtml(
    `${identity.givenName.charAt(0)}${identity.familyName.charAt(0)}`.toUpperCase(),
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" fill="${colour}"/><text x="48" y="48" dy="0.35em" text-anchor="middle" font-family="Arial, sans-serif" font-size="40" fill="#fff">${initials}</text></svg>`;
}

export function registerAvatarRoutes(app: FastifyInstance, context: EmulatorContext): void {
  app.get<{ Params: { picture: string } }>("/lh3.googleusercontent.com/a/:picture", (request, reply) => {
    // Google appends sizing options after "=" (e.g. "=s96-c"); they do not change the image here.
    const id = request.params.picture.split("=")[0] ?? "";
    const identity = context.identities.find("google", id);
    if (identity === undefined) return reply.code(404).type("text/plain").send("Not Found");
    return reply
      .header("content-type", "image/svg+xml")
      .header("cache-control", "public, max-age=86400")
      .header("cross-origin-resource-policy", "cross-origin")
      .send(avatarSvg(identity));
  });
}
