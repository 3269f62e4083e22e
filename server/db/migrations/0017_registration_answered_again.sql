-- A registration keeps, on the phone proof it spent, a keyed hash of its application and its outcome
-- (the cardholder it opened, a denial, an identity taken), so the same application sent again, its answer
-- lost, is answered as the first time (server/features/identity/registration.ts).
ALTER TABLE "mfa_tokens" ADD COLUMN "application_hash" text;--> statement-breakpoint
ALTER TABLE "mfa_tokens" ADD COLUMN "registration_outcome" text;--> statement-breakpoint
ALTER TABLE "mfa_tokens" ADD COLUMN "registered_user_id" uuid;--> statement-breakpoint
ALTER TABLE "mfa_tokens" ADD CONSTRAINT "mfa_tokens_registered_user_id_users_id_fk" FOREIGN KEY ("registered_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;