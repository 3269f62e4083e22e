-- An unlock-code reset keeps, on the ssnToken it spent, a keyed hash of the new code it stored, so the
-- same reset sent again, its answer lost, is answered as the first and stores nothing again
-- (server/features/session/index.ts).
ALTER TABLE "ssn_tokens" ADD COLUMN "unlock_code_reset" text;
