-- A change of the unlock code keeps a keyed hash of its current and new codes while that new code is the
-- code, so the same change sent again, its answer lost, is answered as done and counts no wrong code
-- (server/features/account/index.ts).
ALTER TABLE "users" ADD COLUMN "unlock_code_change" text;
