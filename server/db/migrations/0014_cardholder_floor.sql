-- A cardholder's ledger account always has its floor (its cushion is how it may go below zero):
-- createTransfer lets an account without one spend what it has not, and the invariant report checks
-- the floor only where it is set. Every cardholder account has had it since 0007 (accounts.ts, 0008).
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_cardholder_has_floor" CHECK ("ledger_accounts"."account_id" is null or "ledger_accounts"."debits_must_not_exceed_credits");