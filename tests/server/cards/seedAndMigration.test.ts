/**
 * Seeded cards cover every state of a card's life (docs/sandbox.md "Seeded cardholders"), seeding
 * again changes nothing, and migration 0010 carries the cards of an older database over: each keeps
 * its order time, and a physical card then on its way gets its delivery window and counts as shipped.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../../contract/cards/types.ts';
import { cards } from '../../../server/db/schema/index.ts';
import { cardStateCardholders, demoCardholder, seedDemoData } from '../../../server/seed.ts';
import { signIn, startTestApp, type TestApp } from '../helpers.ts';
import { cardCall, home } from './helpers.ts';
import { emptyPGlite } from '../../support/pgliteSnapshot.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const cardsOf = async (email: string): Promise<Card[]> => {
  const { access } = await signIn(t.app, { email, password: demoCardholder.password });
  return (await home(t.app, access)).accountOverview.cards;
};
const physical = (all: Card[]) => all.filter((card) => card.type === 'PHYSICAL');
const seeded = (state: string) => cardStateCardholders.find((cardholder) => cardholder.state === state)!;

describe('the seeded cardholders', () => {
  it('the demo cardholder has an active virtual card and an active physical card', async () => {
    const all = await cardsOf(demoCardholder.email);
    expect(all.map((card) => [card.type, card.status, card.isActive, card.isPending])).toEqual([
      ['VIRTUAL', 'ACTIVE', true, false],
      ['PHYSICAL', 'ACTIVE', true, false],
    ]);
  });

  it('Ana has a shipped card to activate with the documented last 4 and expiry', async () => {
    const ana = seeded('shipped');
    const [card] = physical(await cardsOf(ana.email));
    expect(card).toMatchObject({ status: 'SHIPPED', isPending: true, lastFour: null, delivery: { shippedOn: expect.any(String), deliveredOn: null } });

    const { access } = await signIn(t.app, { email: ana.email, password: demoCardholder.password });
    const activated = await cardCall(t.app, access, '/activate-card', { lastFourCard: ana.physical.lastFour, expiry: ana.physical.expiry });
    expect(activated.body.card).toMatchObject({ status: 'ACTIVE', lastFour: ana.physical.lastFour });
  });

  it('Luis has a locked card, which he can unlock', async () => {
    const [card] = physical(await cardsOf(seeded('locked').email));
    expect(card).toMatchObject({ status: 'ACTIVE', isActive: true, frozen: true, lastFour: seeded('locked').physical.lastFour });
  });

  it('Grace has a lost card and its free replacement ordered, not shipped yet', async () => {
    const [lost, replacement] = physical(await cardsOf(seeded('lost').email));
    expect(lost).toMatchObject({ status: 'LOST', isActive: false, replacedByCardId: replacement!.id });
    expect(replacement).toMatchObject({ status: 'SHIPPED', isPending: true, replacesCardId: lost!.id, delivery: { shippedOn: null } });
  });

  it('Marcus has a stolen card and its replacement shipped, ready to activate', async () => {
    const [stolen, replacement] = physical(await cardsOf(seeded('stolen').email));
    expect(stolen).toMatchObject({ status: 'STOLEN', isActive: false, replacedByCardId: replacement!.id });
    expect(replacement).toMatchObject({ isPending: true, replacesCardId: stolen!.id, delivery: { shippedOn: expect.any(String) } });
  });

  it('GET /sandbox/cards shows what is printed on a cardholder\'s cards (a tester types it to activate)', async () => {
    const marcus = seeded('stolen');
    const replacement = 'replacement' in marcus ? marcus.replacement : undefined;
    const response = await t.app.inject({ method: 'GET', url: `/sandbox/cards?email=${encodeURIComponent(marcus.email.toUpperCase())}` });
    expect(response.statusCode).toBe(200);
    const printed = response.json<{ cards: { type: string; status: string; lastFour: string; expiry: string }[] }>().cards;
    expect(printed.filter((card) => card.type === 'PHYSICAL')).toEqual([
      expect.objectContaining({ status: 'STOLEN', lastFour: marcus.physical.lastFour, expiry: marcus.physical.expiry }),
      expect.objectContaining({ status: 'SHIPPED', isPending: true, lastFour: replacement?.lastFour, expiry: replacement?.expiry }),
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/cards?email=nobody@example.com' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/cards' })).statusCode).toBe(400);
  });

  it('seeding again changes no card', async () => {
    const before = await t.db.select().from(cards).orderBy(cards.id);
    await seedDemoData(t.db, t.config);
    expect(await t.db.select().from(cards).orderBy(cards.id)).toEqual(before);
  });
});

describe('migration 0010 on a database from before it', () => {
  it("keeps every card, gives each its order time, and a card then on its way a delivery window of 10 to 15 weekdays", async () => {
    const migrations = path.join(import.meta.dirname, '../../../server/db/migrations');
    const before = await mkdtemp(path.join(os.tmpdir(), 'cards-migration-0010-'));
    const client = await emptyPGlite();
    try {
      await cp(migrations, before, { recursive: true });
      const journalPath = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((entry) => entry.tag < '0010');
      await writeFile(journalPath, JSON.stringify(journal));
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: before });
      await db.execute(sql`insert into users (id, email, first_name, last_name, phone, street1, city, state, zip)
        values ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'Old', 'Timer', '5594441212', '1 Main St', 'Fresno', 'CA', '93721')`);
      await db.execute(sql`insert into accounts (id, user_id, prn) values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', '400000000001')`);
      // Wednesday 2026-11-25 (UTC), the day before Thanksgiving.
      await db.execute(sql`insert into cards (account_id, type, status, is_active, is_pending, last_four, expiry, created_at) values
        ('00000000-0000-4000-8000-000000000002', 'VIRTUAL', 'ACTIVE', true, false, '4821', '09/29', '2026-11-01T12:00:00Z'),
        ('00000000-0000-4000-8000-000000000002', 'PHYSICAL', 'SHIPPED', false, true, '7390', '11/30', '2026-11-25T12:00:00Z')`);

      await migrate(db, { migrationsFolder: migrations });

      const { rows } = (await db.execute(sql`select type, ordered_at = created_at as "orderedWhenMade", delivery_earliest::text as earliest,
        delivery_latest::text as latest, shipped_on::text as "shippedOn", last_four as "lastFour" from cards order by type desc`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      expect(rows).toEqual([
        { type: 'VIRTUAL', orderedWhenMade: true, earliest: null, latest: null, shippedOn: null, lastFour: '4821' },
        // Weekdays only (the migration does not know Thanksgiving; new orders are counted by businessDays.ts).
        { type: 'PHYSICAL', orderedWhenMade: true, earliest: '2026-12-09', latest: '2026-12-16', shippedOn: '2026-11-25', lastFour: '7390' },
      ]);
      // The database itself keeps one pending physical card per account.
      await expect(
        db.execute(sql`insert into cards (account_id, type, status, is_pending, last_four, expiry, delivery_earliest, delivery_latest)
          values ('00000000-0000-4000-8000-000000000002', 'PHYSICAL', 'SHIPPED', true, '1111', '01/31', '2026-12-01', '2026-12-08')`),
      ).rejects.toThrow();
    } finally {
      await client.close();
      await rm(before, { recursive: true, force: true });
    }
  });
});
