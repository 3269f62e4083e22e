-- mfaTokens now name what they prove. A token issued before (30 minutes at most) counts as a
-- registration's: an unfinished password reset asks for a new code, and no token opens a reset it was not for.
ALTER TABLE "mfa_tokens" ADD COLUMN "purpose" text DEFAULT 'register' NOT NULL;--> statement-breakpoint
ALTER TABLE "mfa_tokens" ALTER COLUMN "purpose" DROP DEFAULT;--> statement-breakpoint
-- Per-phone code limits are kept per purpose. A phone's row is copied to each purpose, so a lockout or
-- a spent window in progress still holds for all of them until it ends.
ALTER TABLE "phone_verification_limits" DROP CONSTRAINT "phone_verification_limits_pkey";--> statement-breakpoint
ALTER TABLE "phone_verification_limits" ADD COLUMN "purpose" text DEFAULT 'register' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_verification_limits" ALTER COLUMN "purpose" DROP DEFAULT;--> statement-breakpoint
INSERT INTO "phone_verification_limits" ("phone", "purpose", "failures", "locked_until", "window_started_at", "codes_sent")
  SELECT l."phone", other."purpose", l."failures", l."locked_until", l."window_started_at", l."codes_sent"
  FROM "phone_verification_limits" l CROSS JOIN (VALUES ('sign-in'), ('reset-password')) AS other("purpose");--> statement-breakpoint
ALTER TABLE "phone_verification_limits" ADD CONSTRAINT "phone_verification_limits_phone_purpose_pk" PRIMARY KEY("phone","purpose");
