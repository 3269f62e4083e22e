-- A count of wrong tries that is not an escalating policy's starts again once the policy's wait has
-- passed since its last try (server/attemptLimits.ts): typos weeks apart, or other people's behind a
-- shared IP, no longer add up to a lockout.
ALTER TABLE "attempt_limits" ADD COLUMN "last_try_at" timestamp with time zone;
