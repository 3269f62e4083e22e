CREATE TABLE "error_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"device_uuid" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_configs" (
	"audience" text PRIMARY KEY NOT NULL,
	"flags" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "user_properties" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "providers_uuid" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_providers_uuid_unique" UNIQUE("providers_uuid");