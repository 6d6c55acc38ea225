-- Issue 13.5: mail synced before display text lost its bidi controls (U+202A-202E, U+2066-2069)
-- still carried them in subject, sender name and attachment names. Same rule as displayText().
UPDATE "emails" SET "subject" = regexp_replace("subject", '[\u202A-\u202E\u2066-\u2069]', '', 'g')
  WHERE "subject" ~ '[\u202A-\u202E\u2066-\u2069]';--> statement-breakpoint
UPDATE "emails" SET "from_name" = regexp_replace("from_name", '[\u202A-\u202E\u2066-\u2069]', '', 'g')
  WHERE "from_name" ~ '[\u202A-\u202E\u2066-\u2069]';--> statement-breakpoint
UPDATE "emails" SET "attachments" = (
    SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(a) = 'object' AND a ? 'filename'
      THEN jsonb_set(a, '{filename}', to_jsonb(regexp_replace(a->>'filename', '[\u202A-\u202E\u2066-\u2069]', '', 'g')))
      ELSE a END), '[]'::jsonb)
    FROM jsonb_array_elements("attachments") AS a)
  WHERE jsonb_typeof("attachments") = 'array' AND "attachments"::text ~ '[\u202A-\u202E\u2066-\u2069]';
