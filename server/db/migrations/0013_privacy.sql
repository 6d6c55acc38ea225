CREATE TABLE "privacy_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"do_not_sell" boolean DEFAULT false NOT NULL,
	"analytics_opt_out" boolean DEFAULT false NOT NULL,
	"marketing_opt_out" boolean DEFAULT false NOT NULL,
	"data_retention" text DEFAULT 'standard' NOT NULL,
	"retention_run_at" timestamp with time zone,
	"deletion_scheduled_for" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_memories" ADD COLUMN "mail_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_settings_deletion_idx" ON "privacy_settings" USING btree ("deletion_scheduled_for");