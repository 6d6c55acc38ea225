ALTER TABLE "emails" ADD COLUMN IF NOT EXISTS "resurfaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN IF NOT EXISTS "resurface_reason" text;
