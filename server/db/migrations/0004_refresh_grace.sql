ALTER TABLE "refresh_tokens" ADD COLUMN "spent_by_device" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "successor_sealed" text;