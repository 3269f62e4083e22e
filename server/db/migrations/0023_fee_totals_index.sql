-- The fee totals of activity and statements (server/features/ledger/fees.ts) read one account's fees
-- by this index instead of every transfer of the account.
CREATE INDEX "transfers_fees_idx" ON "transfers" USING btree ("debit_ledger_account_id","occurred_at") WHERE "transfers"."kind" = 'fee';
