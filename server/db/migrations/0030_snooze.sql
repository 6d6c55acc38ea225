ALTER TABLE "emails" ADD COLUMN IF NOT EXISTS "snoozed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN IF NOT EXISTS "resurfaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN IF NOT EXISTS "resurface_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "time_zone" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "emails_user_resurfaced_idx" ON "emails" USING btree ("user_id","resurfaced_at" DESC NULLS LAST) WHERE "emails"."resurfaced_at" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "emails_user_snoozed_idx" ON "emails" USING btree ("user_id","snoozed_until") WHERE "emails"."snoozed_until" is not null;