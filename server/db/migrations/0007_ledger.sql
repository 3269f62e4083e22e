CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"account_id" uuid,
	"debits_pending" bigint DEFAULT 0 NOT NULL,
	"debits_posted" bigint DEFAULT 0 NOT NULL,
	"credits_pending" bigint DEFAULT 0 NOT NULL,
	"credits_posted" bigint DEFAULT 0 NOT NULL,
	"cushion_cents" bigint DEFAULT 0 NOT NULL,
	"debits_must_not_exceed_credits" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_account_id_unique" UNIQUE("account_id"),
	CONSTRAINT "ledger_accounts_cardholder_has_account" CHECK (("ledger_accounts"."kind" = 'cardholder') = ("ledger_accounts"."account_id" is not null)),
	CONSTRAINT "ledger_accounts_balances_not_negative" CHECK ("ledger_accounts"."debits_pending" >= 0 and "ledger_accounts"."debits_posted" >= 0 and "ledger_accounts"."credits_pending" >= 0 and "ledger_accounts"."credits_posted" >= 0 and "ledger_accounts"."cushion_cents" >= 0),
	CONSTRAINT "ledger_accounts_debits_within_credits" CHECK (not "ledger_accounts"."debits_must_not_exceed_credits" or "ledger_accounts"."debits_posted" + "ledger_accounts"."debits_pending" <= "ledger_accounts"."credits_posted" + "ledger_accounts"."cushion_cents")
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"debit_ledger_account_id" uuid NOT NULL,
	"credit_ledger_account_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"phase" text NOT NULL,
	"pending_id" uuid,
	"timeout_at" timestamp with time zone,
	"kind" text NOT NULL,
	"counterparty" text,
	"location" text,
	"reverses_id" uuid,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_amount_positive" CHECK ("transfers"."amount_cents" > 0),
	CONSTRAINT "transfers_accounts_differ" CHECK ("transfers"."debit_ledger_account_id" <> "transfers"."credit_ledger_account_id"),
	CONSTRAINT "transfers_resolution_has_pending" CHECK (("transfers"."phase" in ('post_pending', 'void_pending')) = ("transfers"."pending_id" is not null)),
	CONSTRAINT "transfers_timeout_only_pending" CHECK ("transfers"."timeout_at" is null or "transfers"."phase" = 'pending'),
	CONSTRAINT "transfers_reversal_is_posted" CHECK ("transfers"."reverses_id" is null or "transfers"."phase" = 'posted')
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_debit_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("debit_ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_credit_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("credit_ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_pending_id_transfers_id_fk" FOREIGN KEY ("pending_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_reverses_id_transfers_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_system_kind_unique" ON "ledger_accounts" USING btree ("kind") WHERE "ledger_accounts"."account_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_pending_id_unique" ON "transfers" USING btree ("pending_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_reverses_id_unique" ON "transfers" USING btree ("reverses_id");--> statement-breakpoint
CREATE INDEX "transfers_debit_activity_idx" ON "transfers" USING btree ("debit_ledger_account_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transfers_credit_activity_idx" ON "transfers" USING btree ("credit_ledger_account_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transfers_pending_debit_timeout_idx" ON "transfers" USING btree ("debit_ledger_account_id","timeout_at") WHERE "transfers"."phase" = 'pending';--> statement-breakpoint
CREATE INDEX "transfers_pending_timeout_idx" ON "transfers" USING btree ("timeout_at") WHERE "transfers"."phase" = 'pending';--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express these). Transfers are immutable: a correction is a reversal.
CREATE FUNCTION "transfers_are_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'transfers are immutable (% refused); correct one with a reversal', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_immutable" BEFORE UPDATE OR DELETE ON "transfers" FOR EACH ROW EXECUTE FUNCTION "transfers_are_immutable"();--> statement-breakpoint
CREATE TRIGGER "transfers_not_truncated" BEFORE TRUNCATE ON "transfers" FOR EACH STATEMENT EXECUTE FUNCTION "transfers_are_immutable"();--> statement-breakpoint
-- One system account per kind, with fixed ids (server/features/ledger/accounts.ts systemLedgerAccounts).
INSERT INTO "ledger_accounts" ("id", "kind") VALUES
  ('00000000-0000-8000-8000-000000000001', 'settlement'),
  ('00000000-0000-8000-8000-000000000002', 'fee_revenue'),
  ('00000000-0000-8000-8000-000000000003', 'rewards_payable'),
  ('00000000-0000-8000-8000-000000000004', 'cushion_funding');
