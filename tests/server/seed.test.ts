/** The demo data: seeding again changes nothing, and the demo cardholder is linked to her companion user. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
