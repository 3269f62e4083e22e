CREATE TABLE "sandbox_ebt_swipes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"swipe_cents" bigint NOT NULL,
	"merchant" text NOT NULL,
	"owed_after_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_ebt_swipes" ADD CONSTRAINT "sandbox_ebt_swipes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;