CREATE TABLE "processor_pins" (
	"card_id" uuid NOT NULL,
	"pin_kind" text NOT NULL,
	"pin_hash" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processor_pins_card_id_pin_kind_pk" PRIMARY KEY("card_id","pin_kind")
);
--> statement-breakpoint
CREATE TABLE "processor_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"card_id" uuid NOT NULL,
	"pin_kind" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"committed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processor_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "ordered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "delivery_earliest" date;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "delivery_latest" date;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "shipped_on" date;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "delivered_on" date;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "replaces_card_id" uuid;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "fee_transfer_id" uuid;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "pin_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "atm_pin_changed_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written before the constraints: a card made before this migration was ordered when it was
-- made, and a physical card then on its way ("SHIPPED") had shipped. Its delivery window is 10 and 15
-- business days after its order day (UTC), counted Monday to Friday: unlike the card API's own count
-- (contract/shared/businessDays.ts), this statement does not know the federal holidays.
UPDATE "cards" SET "ordered_at" = "created_at";--> statement-breakpoint
UPDATE "cards" c SET
  "shipped_on" = (c."created_at" AT TIME ZONE 'UTC')::date,
  "delivery_earliest" = (SELECT d::date FROM generate_series((c."created_at" AT TIME ZONE 'UTC')::date + 1, (c."created_at" AT TIME ZONE 'UTC')::date + 40, interval '1 day') d
    WHERE extract(isodow FROM d) < 6 ORDER BY d OFFSET 9 LIMIT 1),
  "delivery_latest" = (SELECT d::date FROM generate_series((c."created_at" AT TIME ZONE 'UTC')::date + 1, (c."created_at" AT TIME ZONE 'UTC')::date + 40, interval '1 day') d
    WHERE extract(isodow FROM d) < 6 ORDER BY d OFFSET 14 LIMIT 1)
WHERE c."is_pending";--> statement-breakpoint
CREATE INDEX "processor_tokens_card_idx" ON "processor_tokens" USING btree ("card_id","purpose");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_replaces_card_id_cards_id_fk" FOREIGN KEY ("replaces_card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_fee_transfer_id_transfers_id_fk" FOREIGN KEY ("fee_transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cards_one_pending_physical" ON "cards" USING btree ("account_id") WHERE "cards"."is_pending";--> statement-breakpoint
CREATE UNIQUE INDEX "cards_replaces_card_id_unique" ON "cards" USING btree ("replaces_card_id");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_fee_transfer_id_unique" UNIQUE("fee_transfer_id");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_pending_is_physical_on_its_way" CHECK (not "cards"."is_pending" or ("cards"."type" = 'PHYSICAL' and "cards"."status" = 'SHIPPED' and not "cards"."is_active" and "cards"."delivery_earliest" is not null and "cards"."delivery_latest" is not null));--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_blocked_not_active" CHECK ("cards"."status" not in ('LOST', 'STOLEN') or not "cards"."is_active");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_stopped_not_active" CHECK ("cards"."stopped_at" is null or not "cards"."is_active");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_replaces_another" CHECK ("cards"."replaces_card_id" <> "cards"."id");