ALTER TABLE "emails" ADD COLUMN "has_attachments" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Mail synced before this migration: any listed attachment counts (inline parts were not told apart).
UPDATE "emails" SET "has_attachments" = true WHERE jsonb_array_length("attachments") > 0;
