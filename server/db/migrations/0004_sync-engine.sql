ALTER TABLE "emails" ADD COLUMN "sync_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "backfill_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "lease_expires_at" timestamp with time zone;