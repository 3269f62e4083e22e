-- A registration remembers the cardholder its phone proof opened (mfa_tokens.registered_user_id), so a retry
-- whose first answer was lost is answered again with that account (server/features/identity/registration.ts).
ALTER TABLE "mfa_tokens" ADD COLUMN "registered_user_id" uuid;--> statement-breakpoint
ALTER TABLE "mfa_tokens" ADD CONSTRAINT "mfa_tokens_registered_user_id_users_id_fk" FOREIGN KEY ("registered_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;