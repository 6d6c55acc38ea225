CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"provider_id" text NOT NULL,
	"thread_id" text,
	"internet_message_id" text,
	"from_name" text DEFAULT '' NOT NULL,
	"from_address" text DEFAULT '' NOT NULL,
	"to_recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc_recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_to_recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"snippet" text DEFAULT '' NOT NULL,
	"body_html" text,
	"body_text" text,
	"received_at" timestamp with time zone NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"is_starred" boolean DEFAULT false NOT NULL,
	"is_flagged" boolean DEFAULT false NOT NULL,
	"in_inbox" boolean DEFAULT true NOT NULL,
	"is_trashed" boolean DEFAULT false NOT NULL,
	"is_spam" boolean DEFAULT false NOT NULL,
	"is_draft" boolean DEFAULT false NOT NULL,
	"is_sent" boolean DEFAULT false NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_category" text,
	"bucket" text,
	"list_unsubscribe" text,
	"list_unsubscribe_post" text,
	"authentication_results" text,
	"in_reply_to" text,
	"references_header" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ai_analysis" jsonb,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(subject, '')), 'A') || setweight(to_tsvector('simple', coalesce(from_name, '') || ' ' || coalesce(from_address, '')), 'B') || setweight(to_tsvector('simple', coalesce(snippet, '') || ' ' || left(coalesce(body_text, ''), 20000)), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_states" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"cursor" text,
	"status" text DEFAULT 'idle' NOT NULL,
	"backfill_page_token" text,
	"backfill_done" boolean DEFAULT false NOT NULL,
	"synced_count" integer DEFAULT 0 NOT NULL,
	"total_estimate" integer,
	"last_error" text,
	"last_synced_at" timestamp with time zone,
	"push_subscription_id" text,
	"push_expires_at" timestamp with time zone,
	"push_client_state_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unsubscribe_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid,
	"email_id" uuid,
	"sender_address" text NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"url" text,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unsubscribe_requests" ADD CONSTRAINT "unsubscribe_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unsubscribe_requests" ADD CONSTRAINT "unsubscribe_requests_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unsubscribe_requests" ADD CONSTRAINT "unsubscribe_requests_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_account_provider_uq" ON "emails" USING btree ("account_id","provider_id");--> statement-breakpoint
CREATE INDEX "emails_user_received_idx" ON "emails" USING btree ("user_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_user_bucket_received_idx" ON "emails" USING btree ("user_id","bucket","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "emails_account_message_id_idx" ON "emails" USING btree ("account_id","internet_message_id");--> statement-breakpoint
CREATE INDEX "emails_search_idx" ON "emails" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "unsubscribe_user_sender_uq" ON "unsubscribe_requests" USING btree ("user_id","sender_address");