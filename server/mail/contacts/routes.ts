import type { FastifyInstance } from "fastify";
import { type ContactList, contactsQuerySchema } from "../../../contract/contacts.ts";
import { sessionOf } from "../../http/auth-guard.ts";
import { parseInput } from "../validation.ts";
import type { ContactBook } from "./contact-book.ts";

/** GET /api/contacts?q=<prefix>&limit=8: the signed-in person's recipient suggestions. */
export function registerContactRoutes(app: FastifyInstance, book: Pick<ContactBook, "suggest">): void {
  app.get("/api/contacts", { preHandler: app.requireSession }, async (request): Promise<ContactList> => {
    const query = parseInput(contactsQuerySchema, request.query);
    const contacts = await book.suggest(sessionOf(request).userId, query);
    return { contacts: contacts.map((c) => ({ address: c.address, name: c.name })) };
  });
}
