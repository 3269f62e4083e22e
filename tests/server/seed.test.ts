/** The demo data: seeding again changes nothing, and the demo cardholder is linked to her companion user. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkCardExpiry } from '../../contract/cards/rules.ts';
import { users } from '../../server/db/schema/index.ts';
import { seedDemoData } from '../../server/seed.ts';
import { demoCardholder, demoUser, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ freshDatabase: true });
});
afterAll(async () => {
  await t?.close();
});

describe('seedDemoData', () => {
  it('links the demo cardholder to her companion app uuid', async () => {
    expect((await demoUser(t.db)).providersUuid).toBe(demoCardholder.providersUuid);
  });

  it('adds nothing when run again', async () => {
    const before = await t.db.select({ id: users.id }).from(users);

    await seedDemoData(t.db);

    expect(await t.db.select({ id: users.id }).from(users)).toEqual(before);
  });

  it('links a demo cardholder seeded before embedded mode existed', async () => {
    const user = await demoUser(t.db);
    await t.db.update(users).set({ providersUuid: null }).where(eq(users.id, user.id));

    await seedDemoData(t.db);

    expect((await demoUser(t.db)).providersUuid).toBe(demoCardholder.providersUuid);
  });
});

describe('seeded card expiry dates', () => {
  // Counted from the year the data is seeded: in any year, the cards waiting to be activated can be.
  it.each(['2026-11-25T12:00:00Z', '2031-08-15T12:00:00Z', '2045-01-02T12:00:00Z'])('are in date when seeded on %s', async (seededOn) => {
    vi.useFakeTimers({ now: new Date(seededOn), toFake: ['Date'] });
    try {
      // A copy of the module of its own (the query), evaluated now, on that day.
      const copy = `../../server/seed.ts?seeded-on=${seededOn}`;
      const { cardStateCardholders } = (await import(/* @vite-ignore */ copy)) as typeof import('../../server/seed.ts');
      const ana = cardStateCardholders.find((cardholder) => cardholder.state === 'shipped')!;
      const marcus = cardStateCardholders.find((cardholder) => cardholder.state === 'stolen')!;
      for (const printed of [ana.physical, marcus.replacement]) expect(checkCardExpiry(printed.expiry, new Date(seededOn))).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
