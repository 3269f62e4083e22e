-- A count of wrong tries that is not an escalating policy's starts again once the policy's wait has
-- passed since its last wrong try, and no try has been counted for a minute (server/attemptLimits.ts):
-- right sign-ins between typos no longer keep them counting. Rows from before (0020 left last_try_at
-- empty) are taken as last tried, and counts as last failed, now: none starts again sooner than its
-- wait, and none is stuck.
UPDATE "attempt_limits" SET "last_try_at" = now() WHERE "last_try_at" IS NULL;--> statement-breakpoint
ALTER TABLE "attempt_limits" ALTER COLUMN "last_try_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "attempt_limits" ALTER COLUMN "last_try_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attempt_limits" ADD COLUMN "last_failure_at" timestamp with time zone;--> statement-breakpoint
UPDATE "attempt_limits" SET "last_failure_at" = now() WHERE "failures" > 0;
