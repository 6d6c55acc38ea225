CREATE TABLE "calendar_connect_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"flow_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"provider_event_id" text NOT NULL,
	"series_id" text,
	"title" text NOT NULL,
	"location" text,
	"all_day" boolean NOT NULL,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"start_date" text,
	"end_date" text,
	"time_zone" text,
	"status" text NOT NULL,
	"organizer" text,
	"attendees" jsonb NOT NULL,
	"html_link" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"access_token_ciphertext" text NOT NULL,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_ciphertext" text,
	"scope" text,
	"calendar_id" text,
	"calendar_name" text,
	"calendar_time_zone" text,
	"sync_cursor" text,
	"sync_window_start" timestamp with time zone,
	"sync_window_end" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	"last_error" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "purpose" text DEFAULT 'sign_in' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "calendar_account_id" uuid;--> statement-breakpoint
ALTER TABLE "calendar_connect_tickets" ADD CONSTRAINT "calendar_connect_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connect_tickets" ADD CONSTRAINT "calendar_connect_tickets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_integration_id_calendar_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."calendar_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_integrations" ADD CONSTRAINT "calendar_integrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_integrations" ADD CONSTRAINT "calendar_integrations_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_connect_tickets_hash_uq" ON "calendar_connect_tickets" USING btree ("ticket_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_events_integration_event_uq" ON "calendar_events" USING btree ("integration_id","provider_event_id");--> statement-breakpoint
CREATE INDEX "calendar_events_user_start_idx" ON "calendar_events" USING btree ("user_id","start_at");--> statement-breakpoint
CREATE INDEX "calendar_events_user_date_idx" ON "calendar_events" USING btree ("user_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_integrations_account_uq" ON "calendar_integrations" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "calendar_integrations_user_idx" ON "calendar_integrations" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_calendar_account_id_mail_accounts_id_fk" FOREIGN KEY ("calendar_account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;