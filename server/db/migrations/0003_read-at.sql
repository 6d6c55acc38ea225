ALTER TABLE "emails" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "emails_user_read_at_idx" ON "emails" USING btree ("user_id","read_at");