/**
 * Dates of birth at rest: stored in clear until 2026-12-02, sealed at the next start (server/startUp.ts,
 * as server/main.ts prepares the database every time); sealing again changes nothing.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sealClearDatesOfBirth, unsealDob } from '../../../server/datesOfBirth.ts';
import { users } from '../../../server/db/schema/index.ts';
import { cardStateCardholders, demoCardholder, mfaCardholder } from '../../../server/seed.ts';
import { restartingOnOneDatabase, startTestApp } from '../helpers.ts';

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

describe('dates of birth stored in clear', () => {
  it('are sealed at the next start, each to its own user, and nothing else changes', async () => {
    const [ana] = cardStateCardholders;
    await restartingOnOneDatabase(async (start) => {
      const first = await start();
      // Two rows as a server before this change left them; another with none.
      await first.db.update(users).set({ dob: demoCardholder.dob }).where(byEmail(demoCardholder.email));
      await first.db.update(users).set({ dob: ` ${mfaCardholder.dob}` }).where(byEmail(mfaCardholder.email));
      await first.db.update(users).set({ dob: null }).where(byEmail(ana!.email));
      const before = await first.db.select().from(users);
      await first.close();

      const second = await start();
      const after = await second.db.select().from(users);
      await second.close();

      const byId = (rows: typeof before) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
      const withoutDob = (rows: typeof before) => byId(rows).map(({ dob: _dob, ...others }) => others);
      expect(withoutDob(after)).toEqual(withoutDob(before));
      const dobOf = (rows: typeof before, email: string) => rows.find((row) => row.email.toLowerCase() === email.toLowerCase())!;
      const key = second.config.ssnEncryptionKey;
      for (const [email, dob] of [[demoCardholder.email, '04/12/1986'], [mfaCardholder.email, mfaCardholder.dob]] as const) {
        const { id, dob: stored } = dobOf(after, email);
        expect(stored).toMatch(/^aesgcm\$[\w-]+\$[\w-]+\$[\w-]+$/);
        expect(unsealDob(stored!, key, id)).toBe(dob);
      }
      expect(dobOf(after, ana!.email).dob).toBeNull();
      // Every other row was sealed already, and is as it was.
      const others = (rows: typeof before) =>
        byId(rows.filter((row) => !([demoCardholder.email, mfaCardholder.email, ana!.email] as string[]).includes(row.email))).map(({ id, dob }) => ({ id, dob }));
      expect(others(after)).toEqual(others(before));
      expect(others(after).length).toBeGreaterThan(0);
    });
  });

  it('are sealed however many there are: more than a batch, each once, to its own user', async () => {
    const t = await startTestApp();
    try {
      const many = 501; // a full batch of 500 and one row more
      await t.db.execute(sql`insert into users (email, first_name, last_name, phone, street1, city, state, zip, dob)
        select 'many' || n || '@example.com', 'Many', 'Rows', (5550000000 + n)::text, n || ' Main St', 'Fresno', 'CA', '93701',
          lpad((1 + n % 12)::text, 2, '0') || '/' || lpad((1 + n % 28)::text, 2, '0') || '/' || (1950 + n % 50)
        from generate_series(1, ${many}) as n`);
      const before = await t.db.select({ id: users.id, email: users.email, dob: users.dob }).from(users).where(sql`${users.email} like 'many%'`);

      expect(await sealClearDatesOfBirth(t.db, t.config.ssnEncryptionKey)).toBe(many);

      const after = await t.db.select({ id: users.id, dob: users.dob }).from(users).where(sql`${users.email} like 'many%'`);
      const sealedOf = new Map(after.map((row) => [row.id, row.dob!]));
      expect(before).toHaveLength(many);
      for (const { id, dob } of before) expect(unsealDob(sealedOf.get(id)!, t.config.ssnEncryptionKey, id)).toBe(dob);
      expect(await sealClearDatesOfBirth(t.db, t.config.ssnEncryptionKey)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('sealed already are left as they are: a second sealing finds none', async () => {
    const t = await startTestApp();
    try {
      const before = await t.db.select({ id: users.id, dob: users.dob }).from(users);
      expect(before.every((row) => row.dob?.startsWith('aesgcm$'))).toBe(true);

      expect(await sealClearDatesOfBirth(t.db, t.config.ssnEncryptionKey)).toBe(0);

      expect(await t.db.select({ id: users.id, dob: users.dob }).from(users)).toEqual(before);
      const [demo] = await t.db.select().from(users).where(eq(users.email, demoCardholder.email));
      expect(unsealDob(demo!.dob!, t.config.ssnEncryptionKey, demo!.id)).toBe(demoCardholder.dob);
    } finally {
      await t.close();
    }
  });
});
