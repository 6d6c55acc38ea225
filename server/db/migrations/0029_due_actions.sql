-- Issue 36 (undo send), base for issue 37 (snooze, send later, follow-ups); decision 0069.
-- due_actions: things to do for a person at a time of the server's clock, swept by the worker
-- role (FOR UPDATE SKIP LOCKED) so each runs exactly once; a held mail is kind 'send'.
-- users.send_delay_seconds: the "Undo send" window the person chose (0, 5, 10, 20 or 30 s).
CREATE TABLE "due_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payload" jsonb NOT NULL,
	"ref" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "send_delay_seconds" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "due_actions" ADD CONSTRAINT "due_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "due_actions_due_idx" ON "due_actions" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "due_actions_user_idx" ON "due_actions" USING btree ("user_id","kind");