/**
 * Card races only a real PostgreSQL can show (PGlite runs one statement at a time): 50 identical
 * /order-card requests arriving together charge the fee once and make one card; 50 orders with
 * different keys make one card (one pending physical card at a time); 20 activation guesses at once
 * are never more than the five tries allowed; one sandbox EBT swipe key for ten cardholders at once
 * counts one swipe; one purchase key sent at once naming the card and naming none makes one hold
 * and refuses the retries naming otherwise; a purchase arriving while the card is being locked waits
 * and is refused.
 * PG_TESTS=0 leaves these out where no server can start.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { fees } from '../../../contract/shared/fees.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { attemptLimits, cards, transfers } from '../../../server/db/schema/index.ts';
import { appOnPostgres, describeOnPostgres, type TestApp } from '../helpers.ts';
import { cardCall, event, home, ledgerReport, newCardholder, orderCard, ship } from './helpers.ts';

describeOnPostgres('cards on real PostgreSQL', { timeout: 60_000 }, () => {
  let t: TestApp;
  appOnPostgres((app) => {
    t = app;
  });

  const feesOf = async (accountId: string) =>
    t.db
      .select({ id: transfers.id, amountCents: transfers.amountCents })
      .from(transfers)
      .where(sql`${transfers.kind} = 'fee' and ${transfers.debitLedgerAccountId} = (select id from ledger_accounts where account_id = ${accountId})`);
  const physicalCardsOf = async (accountId: string) =>
    (await t.db.select().from(cards).where(eq(cards.accountId, accountId))).filter((card) => card.type === 'PHYSICAL');

  it('one EBT swipe key for ten cardholders at once: one swipe counted, the others refused as another swipe, never a 500', async () => {
    const holders = await Promise.all(Array.from({ length: 10 }, () => newCardholder(t.app, t.db)));
    const owedBy = async () => Promise.all(holders.map(async (holder) => (await home(t.app, holder.access)).accountOverview.ebtRewardOwed));

    for (let round = 0; round < 5; round += 1) {
      const key = `ebt-swipe-${randomUUID()}`;
      const before = await owedBy();
      const answers = await Promise.all(
        holders.map((holder) => event(t.app, { type: 'ebt.swipe', email: holder.email, amountCents: 5_000, merchant: 'Food 4 Less' }, key)),
      );

      expect(answers.filter((answer) => answer.status === 200), JSON.stringify(answers)).toHaveLength(1);
      for (const answer of answers.filter((answer) => answer.status !== 200)) {
        expect(answer).toEqual({ status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } });
      }
      // Only the swipe counted owes its reward.
      const after = await owedBy();
      expect(after.map((owed, i) => owed - before[i]!).sort((a, b) => a - b)).toEqual([...Array(9).fill(0), 50]);
    }
  });

  it('one key sent at once as an EBT swipe and as a deposit: only one of them is made, the other refused as another event', async () => {
    const holder = await newCardholder(t.app, t.db);
    for (let round = 0; round < 10; round += 1) {
      const key = `swipe-or-deposit-${randomUUID()}`;
      const before = await home(t.app, holder.access);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0
            ? event(t.app, { type: 'ebt.swipe', email: holder.email, amountCents: 5_000, merchant: 'Food 4 Less' }, key)
            : event(t.app, { type: 'deposit', email: holder.email, amountCents: 1_000, payer: 'Sunrise Home Care', payee: 'CARDHOLDER, TEST' }, key),
        ),
      );
      const after = await home(t.app, holder.access);
      const swiped = after.accountOverview.ebtRewardOwed - before.accountOverview.ebtRewardOwed;
      const deposited = after.accountOverview.balance - before.accountOverview.balance;
      expect([swiped, deposited], JSON.stringify(answers)).toContainEqual(0);
      expect(swiped + deposited).toBeGreaterThan(0);
      for (const answer of answers.filter((each) => each.status !== 200)) {
        expect(answer).toEqual({ status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } });
      }
    }
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true });
  });

  it('one purchase key sent at once naming the card and naming none: one hold, each retry answered by the card it names', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const key = `by-card-${randomUUID()}`;
    const purchase = { type: 'card.authorization', email: holder.email, amountCents: 700, merchant: 'Save Mart' };
    const sent = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? { ...purchase, cardId: holder.virtualCardId } : purchase));
    const answers = await Promise.all(sent.map((body) => event(t.app, body, key)));

    const made = answers.findIndex((answer) => answer.body.result === 'created');
    expect(answers.filter((answer) => answer.body.result === 'created'), JSON.stringify(answers)).toHaveLength(1);
    const namedAsMade = (i: number) => ('cardId' in sent[i]!) === ('cardId' in sent[made]!);
    answers.forEach((answer, i) => {
      if (i === made) return;
      if (namedAsMade(i)) expect(answer).toMatchObject({ status: 200, body: { result: 'exists', transactionId: answers[made]!.body.transactionId } });
      else expect(answer).toEqual({ status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } });
    });
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(5000 - 700);
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true });
  });

  it('a purchase arriving while the card is being locked waits for the lock, and is refused: never authorized on a card just locked', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    let purchase: Promise<{ status: number; body: object }> | undefined;
    let answered = false;
    // As POST /card/freeze does: the account's row first, then the card. The purchase arrives meanwhile.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select id from accounts where id = ${holder.accountId} for no key update`);
      await tx.execute(sql`update cards set frozen = true where id = ${holder.virtualCardId}`);
      purchase = event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 1_000, merchant: 'Save Mart' });
      void purchase.then(() => (answered = true));
      // Until the purchase waits for the account's row (or, wrongly, has been answered without waiting).
      while (!answered && !(await waitingForALock())) await new Promise((resolve) => setTimeout(resolve, 5));
    });

    expect(await purchase).toEqual({ status: 409, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'card_not_usable' } });
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(5000);
  });

  async function waitingForALock(): Promise<boolean> {
    const { rows } = (await t.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { waiting: number }[] };
    return rows[0]!.waiting > 0;
  }

  it('50 identical /order-card requests at once: every answer is the one card, the fee charged once', async () => {
    expect(t.kind).toBe('postgres');
    const holder = await newCardholder(t.app, t.db, 5000);
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 50 }, () => orderCard(t.app, holder.access, key)));

    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(new Set(answers.map((answer) => answer.body.card!.id)).size).toBe(1);
    expect(answers.every((answer) => answer.body.feeCents === fees.physicalCard.cents)).toBe(true);
    expect(await feesOf(holder.accountId)).toEqual([{ id: expect.any(String), amountCents: fees.physicalCard.cents }]);
    expect(await physicalCardsOf(holder.accountId)).toHaveLength(1);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(5000 - fees.physicalCard.cents);
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true, problems: [] });
  });

  it('50 orders with different keys at once: one card and one fee, the others refused as cardPending', async () => {
    const holder = await newCardholder(t.app, t.db, 50_000);

    const answers = await Promise.all(Array.from({ length: 50 }, () => orderCard(t.app, holder.access)));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer).toEqual({ status: 403, body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'cardPending' } });
    }
    expect(await feesOf(holder.accountId)).toHaveLength(1);
    expect(await physicalCardsOf(holder.accountId)).toHaveLength(1);
  });

  it('a balance for one fee, 20 orders with different keys at once: charged once, never below zero', async () => {
    const holder = await newCardholder(t.app, t.db, fees.physicalCard.cents);

    const answers = await Promise.all(Array.from({ length: 20 }, () => orderCard(t.app, holder.access)));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(0);
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true });
  });

  it('20 wrong activation guesses at once: five tries counted, the rest wait, the card stays pending', async () => {
    const holder = await newCardholder(t.app, t.db);
    const { card } = (await orderCard(t.app, holder.access)).body;
    const printed = await ship(t.app, card!.id);
    const wrong = String((Number(printed.lastFour) + 1) % 10_000).padStart(4, '0');

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => cardCall(t.app, holder.access, '/activate-card', { lastFourCard: wrong, expiry: printed.expiry })),
    );

    const mismatches = answers.filter((answer) => answer.status === 403);
    expect(mismatches.map((answer) => answer.body.attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(16);
    const [counter] = await t.db.select().from(attemptLimits).where(sql`${attemptLimits.scope} = 'card-activation' and ${attemptLimits.subject} = ${holder.userId}`);
    expect(counter).toMatchObject({ failures: 5, lockedUntil: expect.any(Date) });
    expect((await home(t.app, holder.access)).pendingCard).toMatchObject({ id: card!.id, isPending: true });
  });
});
