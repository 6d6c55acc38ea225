import type { FastifyInstance } from "fastify";
import { registerGmailApi } from "../gmail/plugin.ts";
import { registerGraphMailApi } from "../graph/mail/plugin.ts";
import { registerMailAdminRoutes } from "./admin.ts";
import type { MailServices } from "./services.ts";

const services = new WeakMap<FastifyInstance, MailServices>();

/** The mail services of an emulator built by buildEmulator, for in-process tests. */
export function mailServicesOf(app: FastifyInstance): MailServices {
  const mail = services.get(app);
  if (mail === undefined) throw new Error("This Fastify instance has no emulator mail services");
  return mail;
}

/** Gmail and Graph mail APIs, plus their /_admin/mail* controls when admin is on. */
export function registerMailServices(app: FastifyInstance, mail: MailServices, admin: boolean): void {
  services.set(app, mail);
  registerGmailApi(app, mail);
  registerGraphMailApi(app, mail);
  if (admin) registerMailAdminRoutes(app, mail);
  app.addHook("onClose", async () => mail.close());
}
