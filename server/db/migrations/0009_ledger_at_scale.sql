-- Hand-written: system accounts keep no running balances from now on (their balances are the sums of
-- their transfers, read when asked), so no write locks or updates their rows. Clear what they kept.
UPDATE "ledger_accounts" SET "debits_pending" = 0, "debits_posted" = 0, "credits_pending" = 0, "credits_posted" = 0, "cushion_cents" = 0, "debits_must_not_exceed_credits" = false WHERE "account_id" IS NULL;--> statement-breakpoint
CREATE INDEX "transfers_voids_idx" ON "transfers" USING btree ("pending_id") WHERE "transfers"."phase" = 'void_pending';--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_keeps_no_balances" CHECK ("ledger_accounts"."account_id" is not null or ("ledger_accounts"."debits_pending" = 0 and "ledger_accounts"."debits_posted" = 0 and "ledger_accounts"."credits_pending" = 0 and "ledger_accounts"."credits_posted" = 0 and "ledger_accounts"."cushion_cents" = 0 and not "ledger_accounts"."debits_must_not_exceed_credits"));
