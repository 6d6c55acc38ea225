CREATE TABLE "game_badges" (
	"user_id" uuid NOT NULL,
	"badge_id" text NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "game_badges_user_id_badge_id_pk" PRIMARY KEY("user_id","badge_id")
);
--> statement-breakpoint
CREATE TABLE "game_ledger" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_ledger_user_id_kind_key_pk" PRIMARY KEY("user_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "game_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text,
	"show_on_leaderboard" boolean DEFAULT true NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"emails_processed" integer DEFAULT 0 NOT NULL,
	"unsubscribes" integer DEFAULT 0 NOT NULL,
	"ai_uses" integer DEFAULT 0 NOT NULL,
	"inbox_zero_days" integer DEFAULT 0 NOT NULL,
	"inbox_zero_streak" integer DEFAULT 0 NOT NULL,
	"best_inbox_zero_streak" integer DEFAULT 0 NOT NULL,
	"last_inbox_zero_day" date,
	"badges_earned" integer DEFAULT 0 NOT NULL,
	"is_founding_member" boolean DEFAULT false NOT NULL,
	"is_early_adopter" boolean DEFAULT false NOT NULL,
	"score" integer GENERATED ALWAYS AS (emails_processed * 10 + badges_earned * 100 + best_inbox_zero_streak * 50 + case when is_founding_member then 1000 when is_early_adopter then 500 else 0 end) STORED NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "game_score_counts" (
	"score" integer PRIMARY KEY NOT NULL,
	"users" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_badges" ADD CONSTRAINT "game_badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_ledger" ADD CONSTRAINT "game_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_profiles" ADD CONSTRAINT "game_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_profiles_ranking_idx" ON "game_profiles" USING btree ("score" DESC NULLS LAST,"user_id") WHERE "game_profiles"."show_on_leaderboard";--> statement-breakpoint
-- The ranking's histogram follows every change of a visible score (decision 0024), including the
-- cascade that deletes a user's profile.
CREATE FUNCTION "game_score_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.show_on_leaderboard THEN
    UPDATE game_score_counts SET users = users - 1 WHERE score = OLD.score;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.show_on_leaderboard THEN
    INSERT INTO game_score_counts (score, users) VALUES (NEW.score, 1)
    ON CONFLICT (score) DO UPDATE SET users = game_score_counts.users + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "game_profiles_score_counts_insert_delete" AFTER INSERT OR DELETE ON "game_profiles"
  FOR EACH ROW EXECUTE FUNCTION "game_score_counts_track"();
--> statement-breakpoint
CREATE TRIGGER "game_profiles_score_counts_update" AFTER UPDATE ON "game_profiles"
  FOR EACH ROW WHEN (OLD.score IS DISTINCT FROM NEW.score OR OLD.show_on_leaderboard IS DISTINCT FROM NEW.show_on_leaderboard)
  EXECUTE FUNCTION "game_score_counts_track"();
