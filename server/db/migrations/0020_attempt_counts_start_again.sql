-- A count of wrong tries that is not an escalating policy's starts again once the policy's wait has
-- passed since its last wrong try, and no try has been counted for a minute (server/attemptLimits.ts):
-- typos weeks apart, or other people's behind a shared IP, no longer add up to a lockout. Counts kept
-- from before are taken as last tried and failed now, so none starts again sooner than its wait.
ALTER TABLE "attempt_limits" ADD COLUMN "last_try_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "attempt_limits" ADD COLUMN "last_failure_at" timestamp with time zone;--> statement-breakpoint
UPDATE "attempt_limits" SET "last_failure_at" = now() WHERE "failures" > 0;
