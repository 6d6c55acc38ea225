CREATE TABLE "ai_budget" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"day_calls" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"minute_calls" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_budget" ADD CONSTRAINT "ai_budget_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;