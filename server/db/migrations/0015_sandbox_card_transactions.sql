-- The card a sandbox card transaction named, by its transfer (server/partners/moneyEvents.ts byCard):
-- a retry with its Idempotency-Key must name the same card. The ledger's transfers stay as they are.
CREATE TABLE "sandbox_card_transactions" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"card_id" uuid
);
--> statement-breakpoint
ALTER TABLE "sandbox_card_transactions" ADD CONSTRAINT "sandbox_card_transactions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_card_transactions" ADD CONSTRAINT "sandbox_card_transactions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;