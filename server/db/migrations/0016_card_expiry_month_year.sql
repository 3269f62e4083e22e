-- A card's expiry is MM/YY with a real month (server/db/schema/cards.ts): activation and the card network
-- read a month from it. The card API and the processor have only ever written that form.
ALTER TABLE "cards" ADD CONSTRAINT "cards_expiry_month_year" CHECK ("cards"."expiry" ~ '^(0[1-9]|1[0-2])/[0-9]{2}$');
