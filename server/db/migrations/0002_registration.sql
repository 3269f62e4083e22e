CREATE TABLE "agreement_acceptances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"phone" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mfa_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "phone_verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_verification_limits" (
	"phone" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"window_started_at" timestamp with time zone,
	"codes_sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_sms_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"text" text NOT NULL,
	"code" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dob" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ssn_encrypted" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ssn_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "address_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ebt_account_id" text;--> statement-breakpoint
-- Existing rows before the unique indexes: phones as 10 digits, and the address key the registration check uses.
UPDATE "users" SET "phone" = regexp_replace("phone", '\D', '', 'g');--> statement-breakpoint
UPDATE "users" SET "address_key" = trim(regexp_replace(lower("street1" || ' ' || "street2"), '[^a-z0-9]+', ' ', 'g')) || '|' || left(regexp_replace("zip", '\D', '', 'g'), 5) WHERE "address_key" IS NULL;--> statement-breakpoint
ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "agreement_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreement_acceptances_user_kind_unique" ON "agreement_acceptances" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "phone_verification_codes_phone_idx" ON "phone_verification_codes" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_sms_outbox_phone_idx" ON "sandbox_sms_outbox" USING btree ("phone","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_unique" ON "users" USING btree ("phone");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_ssn_hash_unique" UNIQUE("ssn_hash");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_address_key_unique" UNIQUE("address_key");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_ebt_account_id_unique" UNIQUE("ebt_account_id");