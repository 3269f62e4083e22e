-- The hourly delete of sessions past their expiry (server/sessions.ts deleteExpired) finds them by
-- this index instead of reading every refresh token ever issued.
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");