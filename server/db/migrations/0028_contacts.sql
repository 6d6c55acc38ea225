-- Contacts (issue 36, decision 0068): the To/Cc/Bcc suggestions, one row per person and lower-cased address,
-- counted from synced mail and sends through Mailwise; name_words lets "a word of the name starts with q" be one LIKE.
CREATE TABLE "contacts" (
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"received_count" integer DEFAULT 0 NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL,
	"name_words" text GENERATED ALWAYS AS (' ' || trim(regexp_replace(lower(name), '[^[:alnum:]]+', ' ', 'g'))) STORED NOT NULL,
	CONSTRAINT "contacts_user_id_address_pk" PRIMARY KEY("user_id","address")
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill (decision 0068): the contacts of mail synced before this migration, counted the way
-- server/mail/contacts/refresh.ts counts them after each sync (received from: the From of mail not
-- sent, drafts and spam left out; sent to: To and Cc of the person's sent mail).
INSERT INTO "contacts" ("user_id", "address", "name", "sent_count", "received_count", "last_used_at")
SELECT "user_id", "address", (array_agg("name" ORDER BY ("name" = ''), "at" DESC))[1], sum("sent"), sum("received"), max("at")
FROM (
	SELECT e."user_id", lower(e."from_address") AS "address", left(e."from_name", 200) AS "name", 0 AS "sent", 1 AS "received", e."received_at" AS "at"
	FROM "emails" e
	WHERE NOT e."is_sent" AND NOT e."is_draft" AND NOT e."is_spam" AND e."from_address" LIKE '%@%' AND length(e."from_address") <= 320
	UNION ALL
	SELECT e."user_id", lower(r->>'address'), left(coalesce(r->>'name', ''), 200), 1, 0, e."received_at"
	FROM "emails" e CROSS JOIN LATERAL jsonb_array_elements(e."to_recipients" || e."cc_recipients") r
	WHERE e."is_sent" AND NOT e."is_draft" AND jsonb_typeof(r) = 'object' AND r->>'address' LIKE '%@%' AND length(r->>'address') <= 320
) "used"
GROUP BY "user_id", "address";
