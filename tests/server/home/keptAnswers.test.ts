/**
 * GET /home gives a kept answer only while it is still the answer: the rows it was read from
 * unchanged (their versions) and no hold in it timed out. Each way the answer can change is checked
 * right after an answer was kept.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { loadHome } from '../../../server/features/home/queries.ts';
import { createTransfer, systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { demoHold } from '../../../server/seed.ts';
import { countingStatements } from '../../support/countingStatements.ts';
import { bearer, demoUser, getHome, signIn, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let access: string;
let userId: string;
/** The session the tests read as (any family id of a session not revoked). */
let session: { userId: string; familyId: string };

beforeAll(async () => {
  t = await startTestApp({ env: { SANDBOX: 'true' } });
  ({ access } = await signIn(t.app));
  userId = (await demoUser(t.db)).id;
  session = { userId, familyId: '00000000-0000-4000-8000-000000000000' };
});
afterAll(async () => {
  await t?.close();
});

const home = async () => {
  const response = await getHome(t.app, access);
  expect(response.statusCode).toBe(200);
  return response.json<HomeAnswer>();
};
const event = async (body: object) => {
  const response = await t.app.inject({ method: 'POST', url: '/sandbox/events', payload: body });
  expect(response.statusCode).toBe(200);
  return response.json<{ transactionId?: string }>();
};

describe('kept home answers', () => {
  beforeEach(async () => {
    await home(); // an answer kept before each change below
  });

  it('are given again, after reading only the versions, while nothing changed', async () => {
    const { db, runs } = countingStatements(t.db);
    const first = await loadHome(db, session);
    const again = await loadHome(db, session);
    expect(again).toEqual(first);
    // On the embedded database nothing but reads reached it in between: not even the versions are read.
    expect(runs).toEqual(t.kind === 'pglite' ? ['home_overview'] : ['home_overview', 'home_version']);
  });

  it('are read again after a transfer: a hold, then its settlement', async () => {
    const before = await home();
    const { transactionId } = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 700, merchant: 'Tower Cafe' });
    const held = await home();
    expect(held.accountOverview.balance).toBe(before.accountOverview.balance - 700);
    expect(held.accountOverview.transactions[0]).toMatchObject({ id: transactionId, status: 'pending' });
    await event({ type: 'card.settlement', transactionId });
    const settled = await home();
    expect(settled.accountOverview.onHold).toBe(before.accountOverview.onHold);
    expect(settled.accountOverview.transactions[0]).toMatchObject({ id: transactionId, status: 'posted' });
  });

  it('are read again after a card changes', async () => {
    const card = (await home()).accountOverview.cards.find((each) => each.type === 'VIRTUAL')!;
    const frozen = await t.app.inject({ method: 'POST', url: '/api/v1/card/freeze', headers: bearer(access), payload: { id: card.id } });
    expect(frozen.statusCode).toBe(200);
    expect((await home()).accountOverview.cards.find((each) => each.id === card.id)).toMatchObject({ frozen: true });
    await t.app.inject({ method: 'POST', url: '/api/v1/card/unfreeze', headers: bearer(access), payload: { id: card.id } });
    expect((await home()).accountOverview.cards.find((each) => each.id === card.id)).toMatchObject({ frozen: false });
  });

  it('are read again after the account or the user row changes', async () => {
    await t.db.execute(sql`update accounts set ebt_reward_owed_cents = ebt_reward_owed_cents + 125 where user_id = ${userId}`);
    const owed = (await home()).accountOverview.ebtRewardOwed;
    await t.db.execute(sql`update accounts set ebt_reward_owed_cents = ebt_reward_owed_cents - 125 where user_id = ${userId}`);
    expect((await home()).accountOverview.ebtRewardOwed).toBe(owed - 125);

    await t.db.execute(sql`update users set registration_wave = 'kept-answers-test' where id = ${userId}`);
    expect((await home()).registrationWave).toBe('kept-answers-test');
  });

  it('end when a hold they show times out, with no write in between', async () => {
    const now = new Date();
    const shown = await loadHome(t.db, session, now);
    if (!shown || shown === 'revoked') throw new Error('no home');
    const hold = shown.accountOverview.transactions.find((each) => each.counterparty === demoHold.counterparty && each.status === 'pending')!;
    expect(hold.heldUntil).not.toBeNull();

    const afterTimeout = new Date(new Date(hold.heldUntil!).getTime() + 1);
    const later = await loadHome(t.db, session, afterTimeout);
    if (!later || later === 'revoked') throw new Error('no home');
    expect(later.accountOverview.transactions.map((each) => each.id)).not.toContain(hold.id);
    expect(later.accountOverview.onHold).toBe(shown.accountOverview.onHold - demoHold.cents);

    // The answer read after the timeout is not given for a time before it: the hold shows again.
    const before = await loadHome(t.db, session, now);
    if (!before || before === 'revoked') throw new Error('no home');
    expect(before.accountOverview.transactions.map((each) => each.id)).toContain(hold.id);
    expect(before.accountOverview.onHold).toBe(shown.accountOverview.onHold);
  });

  it('end when money on its way in that they show times out', async () => {
    const { rows } = (await t.db.execute(sql`select la.id from ledger_accounts la join accounts a on a.id = la.account_id where a.user_id = ${userId}`)) as unknown as { rows: { id: string }[] };
    const load = await createTransfer(t.db, {
      id: randomUUID(),
      debit: systemLedgerAccounts.settlement,
      credit: rows[0]!.id,
      amountCents: 2000,
      kind: 'cash_load',
      counterparty: 'Kept Answers Market',
      phase: 'pending',
      timeoutSeconds: 3600,
    });
    expect(load.result).toBe('created');
    const now = new Date();
    const shown = await loadHome(t.db, session, now);
    if (!shown || shown === 'revoked') throw new Error('no home');
    expect(shown.accountOverview.transactions[0]).toMatchObject({ counterparty: 'Kept Answers Market', status: 'pending' });

    const later = await loadHome(t.db, session, new Date(now.getTime() + 3_600_000 + 60_000));
    if (!later || later === 'revoked') throw new Error('no home');
    expect(later.accountOverview.transactions.map((each) => each.counterparty)).not.toContain('Kept Answers Market');
  });

  it('end when a hold counted in the balance but older than the activity shown times out', async () => {
    const { transactionId } = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 450, merchant: 'Old Hold', holdDays: 2 });
    for (let i = 0; i < 20; i += 1) await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 100 + i, payer: 'Kept Answers Payroll', payee: 'MARIA LOPEZ' });
    const now = new Date();
    const shown = await loadHome(t.db, session, now);
    if (!shown || shown === 'revoked') throw new Error('no home');
    expect(shown.accountOverview.transactions.map((each) => each.id)).not.toContain(transactionId);

    const afterTimeout = new Date(now.getTime() + 2 * 86_400_000 + 60_000);
    const later = await loadHome(t.db, session, afterTimeout);
    if (!later || later === 'revoked') throw new Error('no home');
    // The seeded hold lasts 7 days, so only this one timed out.
    expect(later.accountOverview.onHold).toBe(shown.accountOverview.onHold - 450);
    expect(later.accountOverview.balance).toBe(shown.accountOverview.balance + 450);
  });

  it('are not given to a session signed out since', async () => {
    const session2 = await signIn(t.app);
    expect((await getHome(t.app, session2.access)).statusCode).toBe(200);
    const signedOut = await t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: bearer(session2.refresh) });
    expect(signedOut.statusCode).toBe(200);
    expect((await getHome(t.app, session2.access)).statusCode).toBe(401);
  });
});


describe('kept home answers on the embedded database', () => {
  let embedded: TestApp;
  let embeddedAccess: string;
  beforeAll(async () => {
    embedded = await startTestApp({ freshDatabase: true, env: { SANDBOX: 'true' } });
    ({ access: embeddedAccess } = await signIn(embedded.app));
  });
  afterAll(async () => {
    await embedded?.close();
  });

  it('are given with nothing read while GET /home writes nothing; another session has its revocation read; any write has the versions read', async () => {
    const changes = (embedded.db as unknown as { $client: { changes: () => number } }).$client.changes;
    expect((await getHome(embedded.app, embeddedAccess)).statusCode).toBe(200);
    const mark = changes();
    expect((await getHome(embedded.app, embeddedAccess)).statusCode).toBe(200);
    expect(changes()).toBe(mark);

    const user = (await demoUser(embedded.db)).id;
    const { db, runs } = countingStatements(embedded.db);
    const first = await loadHome(db, { userId: user, familyId: session.familyId });
    expect(await loadHome(db, { userId: user, familyId: session.familyId })).toEqual(first);
    expect(runs).toEqual(['home_overview']);

    expect(await loadHome(db, { userId: user, familyId: randomUUID() })).toEqual(first);
    expect(runs).toEqual(['home_overview', 'home_version']);

    await embedded.app.inject({ method: 'POST', url: '/sandbox/events', payload: { type: 'deposit', email: 'demo@providers.test', amountCents: 125, payer: 'Kept Answers Payroll', payee: 'MARIA LOPEZ' } });
    const paid = await loadHome(db, { userId: user, familyId: session.familyId });
    if (!paid || paid === 'revoked') throw new Error('no home');
    expect(paid.accountOverview.balance).toBe((first as HomeAnswer).accountOverview.balance + 125);
    expect(runs).toEqual(['home_overview', 'home_version', 'home_version', 'home_overview']);
  });
});
