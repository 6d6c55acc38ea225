ALTER TABLE "calendar_integrations" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_integrations" ADD COLUMN "provider_account_id" text;--> statement-breakpoint
UPDATE "calendar_integrations" SET "provider_account_id" = "mail_accounts"."provider_account_id" FROM "mail_accounts" WHERE "mail_accounts"."id" = "calendar_integrations"."account_id";--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_integrations_grant_uq" ON "calendar_integrations" USING btree ("user_id","provider","provider_account_id");