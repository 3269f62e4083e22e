-- Hand-written before drizzle-kit's DROP: the activity of databases made before the ledger becomes
-- posted transfers, each card account gets its ledger account, and the balance columns are summed
-- from those transfers, so no cent is lost or made. Kinds and counterparties come from the old
-- kind and description ("Purchase: Save Mart" -> purchase, Save Mart).
INSERT INTO "ledger_accounts" ("kind", "account_id", "debits_must_not_exceed_credits")
SELECT 'cardholder', a."id", true FROM "accounts" a
ON CONFLICT ("account_id") DO NOTHING;--> statement-breakpoint
INSERT INTO "transfers" ("id", "debit_ledger_account_id", "credit_ledger_account_id", "amount_cents", "phase", "kind", "counterparty", "location", "occurred_at")
SELECT lt."id",
  CASE WHEN lt."amount_cents" < 0 THEN la."id" ELSE other."id" END,
  CASE WHEN lt."amount_cents" < 0 THEN other."id" ELSE la."id" END,
  abs(lt."amount_cents"), 'posted', moved."kind",
  CASE WHEN lt."kind" = 'fee' THEN nullif(regexp_replace(lt."description", '\s*fee$', '', 'i'), '')
       WHEN position(': ' IN lt."description") > 0 AND moved."kind" NOT IN ('ebt_reward') THEN substr(lt."description", position(': ' IN lt."description") + 2)
       ELSE NULL END,
  lt."location", lt."occurred_at"
FROM "ledger_transactions" lt
JOIN "ledger_accounts" la ON la."account_id" = lt."account_id"
CROSS JOIN LATERAL (SELECT CASE lt."kind"
  WHEN 'atm' THEN 'atm_withdrawal'
  WHEN 'deposit' THEN 'deposit' WHEN 'purchase' THEN 'purchase' WHEN 'cash_load' THEN 'cash_load' WHEN 'fee' THEN 'fee'
  WHEN 'ebt_reward' THEN 'ebt_reward' WHEN 'refund' THEN 'refund'
  ELSE CASE WHEN lt."amount_cents" < 0 THEN 'purchase' ELSE 'deposit' END END AS "kind") moved
JOIN "ledger_accounts" other ON other."account_id" IS NULL AND other."kind" = CASE moved."kind"
  WHEN 'fee' THEN 'fee_revenue' WHEN 'ebt_reward' THEN 'rewards_payable' ELSE 'settlement' END
WHERE lt."amount_cents" <> 0
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
UPDATE "ledger_accounts" la SET
  "debits_posted" = la."debits_posted" + coalesce((SELECT sum(t."amount_cents") FROM "transfers" t JOIN "ledger_transactions" lt ON lt."id" = t."id" WHERE t."debit_ledger_account_id" = la."id"), 0),
  "credits_posted" = la."credits_posted" + coalesce((SELECT sum(t."amount_cents") FROM "transfers" t JOIN "ledger_transactions" lt ON lt."id" = t."id" WHERE t."credit_ledger_account_id" = la."id"), 0);--> statement-breakpoint
DROP TABLE "ledger_transactions" CASCADE;
