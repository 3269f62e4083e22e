/**
 * Migrations that carry old rows over, on one database from before migration 0010, migrated in steps
 * with rows of the time put in before each step (one database: migrating a new cluster costs seconds).
 * - 0010: each card keeps its order time, and a physical card then on its way gets its delivery window
 *   and counts as shipped.
 * - 0013: a phone's code limits, then shared by every purpose, are copied to each purpose (a lockout in
 *   progress still holds for all), and an unspent mfaToken counts as a registration's (it can no longer
 *   open a password reset).
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../server/db/database.ts';
import { emptyPGlite, migrateBefore } from '../support/pgliteSnapshot.ts';

type Rows = { rows: Record<string, unknown>[] };

let client: PGlite;
const db = () => drizzle({ client });
const rowsOf = async (query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as Rows).rows;

beforeAll(async () => {
  client = await emptyPGlite();

  await migrateBefore(client, '0010');
  await db().execute(sql`insert into users (id, email, first_name, last_name, phone, street1, city, state, zip)
    values ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'Old', 'Timer', '5594441212', '1 Main St', 'Fresno', 'CA', '93721')`);
  await db().execute(sql`insert into accounts (id, user_id, prn) values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '400000000001')`);
  // Wednesday 2026-11-25 (UTC), the day before Thanksgiving.
  await db().execute(sql`insert into cards (account_id, type, status, is_active, is_pending, last_four, expiry, created_at) values
    ('00000000-0000-4000-8000-000000000002', 'VIRTUAL', 'ACTIVE', true, false, '4821', '09/29', '2026-11-01T12:00:00Z'),
    ('00000000-0000-4000-8000-000000000002', 'PHYSICAL', 'SHIPPED', false, true, '7390', '11/30', '2026-11-25T12:00:00Z')`);

  await migrateBefore(client, '0013');
  await db().execute(sql`insert into phone_verification_limits (phone, failures, locked_until, window_started_at, codes_sent) values
    ('5594441212', 5, '2026-11-29T21:10:00Z', '2026-11-29T21:00:00Z', 2),
    ('5594443434', 0, null, null, 0)`);
  await db().execute(sql`insert into mfa_tokens (token_hash, phone, expires_at) values ('hash-1', '5594441212', '2026-11-29T21:30:00Z')`);

  await migrate(db(), { migrationsFolder });
});
afterAll(async () => {
  await client?.close();
});

describe('migration 0010', () => {
  it('keeps every card, gives each its order time, and a card then on its way a delivery window of 10 to 15 weekdays', async () => {
    expect(
      await rowsOf(sql`select type, ordered_at = created_at as "orderedWhenMade", delivery_earliest::text as earliest,
        delivery_latest::text as latest, shipped_on::text as "shippedOn", last_four as "lastFour" from cards order by type desc`),
    ).toEqual([
      { type: 'VIRTUAL', orderedWhenMade: true, earliest: null, latest: null, shippedOn: null, lastFour: '4821' },
      // Weekdays only (the migration does not know Thanksgiving; new orders are counted by businessDays.ts).
      { type: 'PHYSICAL', orderedWhenMade: true, earliest: '2026-12-09', latest: '2026-12-16', shippedOn: '2026-11-25', lastFour: '7390' },
    ]);
    // The database itself keeps one pending physical card per account.
    await expect(
      db().execute(sql`insert into cards (account_id, type, status, is_pending, last_four, expiry, delivery_earliest, delivery_latest)
        values ('00000000-0000-4000-8000-000000000002', 'PHYSICAL', 'SHIPPED', true, '1111', '01/31', '2026-12-01', '2026-12-08')`),
    ).rejects.toThrow();
  });
});

describe('migration 0013', () => {
  it('copies each phone’s code limits to every purpose, lockout and window included', async () => {
    expect(
      await rowsOf(sql`select phone, purpose, failures, locked_until::text as "lockedUntil", codes_sent as "codesSent"
        from phone_verification_limits order by phone, purpose`),
    ).toEqual(
      ['5594441212', '5594443434'].flatMap((phone) =>
        ['register', 'reset-password', 'sign-in'].map((purpose) =>
          phone === '5594441212'
            ? { phone, purpose, failures: 5, lockedUntil: '2026-11-29 21:10:00+00', codesSent: 2 }
            : { phone, purpose, failures: 0, lockedUntil: null, codesSent: 0 },
        ),
      ),
    );
    // One row per phone and purpose.
    await expect(db().execute(sql`insert into phone_verification_limits (phone, purpose) values ('5594443434', 'sign-in')`)).rejects.toThrow();
  });

  it('makes an unspent mfaToken a registration’s; a new one must name its purpose', async () => {
    expect(await rowsOf(sql`select phone, purpose from mfa_tokens`)).toEqual([{ phone: '5594441212', purpose: 'register' }]);
    await expect(db().execute(sql`insert into mfa_tokens (token_hash, phone, expires_at) values ('hash-2', '5594441212', now())`)).rejects.toThrow();
  });
});
