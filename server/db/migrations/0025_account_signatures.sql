-- Issue 36: a signature per mail account (decision 0064).
ALTER TABLE "mail_accounts" ADD COLUMN "signature_html" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_accounts" ADD COLUMN "signature_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Decision 0064: the account's signature is the one place a signature is set. The AI agent's
-- email_signature (plain text) moves into every account of its person that has none yet, as text
-- and as escaped HTML with line breaks, and is emptied in the agent so nothing reads it again.
UPDATE "mail_accounts" AS m
SET "signature_text" = a."preferences"->>'email_signature',
    "signature_html" = regexp_replace(
      replace(replace(replace(replace(a."preferences"->>'email_signature', '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'),
      E'\r?\n', '<br>', 'g')
FROM "agents" AS a
WHERE a."user_id" = m."user_id"
  AND coalesce(a."preferences"->>'email_signature', '') <> ''
  AND m."signature_text" = '';--> statement-breakpoint
UPDATE "agents" SET "preferences" = "preferences" || '{"email_signature": ""}'::jsonb
WHERE coalesce("preferences"->>'email_signature', '') <> '';
