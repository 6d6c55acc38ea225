CREATE TABLE "invitation_answers" (
	"user_id" uuid NOT NULL,
	"email_id" uuid NOT NULL,
	"response" text NOT NULL,
	"via" text NOT NULL,
	"answered_from" text NOT NULL,
	"organizer" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invitation_answers_user_id_email_id_pk" PRIMARY KEY("user_id","email_id")
);
--> statement-breakpoint
ALTER TABLE "invitation_answers" ADD CONSTRAINT "invitation_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_answers" ADD CONSTRAINT "invitation_answers_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitation_answers_email_idx" ON "invitation_answers" USING btree ("email_id");