/**
 * Activation tries are limited and counted in the database (like the unlock code), so a card's last 4
 * and expiry cannot be guessed: wrong tries answer 403 `{3, reason, attemptsLeft}`, the fifth starts a
 * 30-minute wait (429 `{201, retryAfterSeconds}`), during which even the right digits wait.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { attemptLimits } from '../../../server/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers.ts';
import { type Cardholder, cardCall, home, newCardholder, orderCard, ship } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A cardholder whose ordered card has shipped, and what is printed on it. */
async function shippedCard(): Promise<{ holder: Cardholder; printed: { lastFour: string; expiry: string } }> {
  const holder = await newCardholder(t.app, t.db);
  const { card } = (await orderCard(t.app, holder.access)).body;
  return { holder, printed: await ship(t.app, card!.id) };
}

const otherDigits = (digits: string) => String((Number(digits) + 1) % 10_000).padStart(4, '0');
const otherExpiry = (expiry: string) => `${expiry.slice(0, 2) === '12' ? '11' : '12'}${expiry.slice(2)}`;
const counted = async (userId: string) =>
  (await t.db.select().from(attemptLimits).where(and(eq(attemptLimits.scope, 'card-activation'), eq(attemptLimits.subject, userId))))[0];

describe('wrong tries', () => {
  it('say which part is wrong and how many tries are left, then make the cardholder wait', async () => {
    const { holder, printed } = await shippedCard();
    const wrongLastFour = { lastFourCard: otherDigits(printed.lastFour), expiry: printed.expiry };
    const wrongExpiry = { lastFourCard: printed.lastFour, expiry: otherExpiry(printed.expiry) };

    expect(await cardCall(t.app, holder.access, '/activate-card', wrongLastFour)).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'lastFourMismatch', attemptsLeft: 4 },
    });
    expect(await cardCall(t.app, holder.access, '/activate-card', wrongExpiry)).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'expiryMismatch', attemptsLeft: 3 },
    });
    expect(await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: wrongLastFour.lastFourCard })).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'lastFourMismatch', attemptsLeft: 2 },
    });
    expect((await cardCall(t.app, holder.access, '/activate-card', wrongExpiry)).body).toMatchObject({ attemptsLeft: 1 });

    const fifth = await cardCall(t.app, holder.access, '/activate-card', wrongExpiry);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(fifth.body.retryAfterSeconds).toBeGreaterThan(29 * 60);
    expect(fifth.body.retryAfterSeconds).toBeLessThanOrEqual(30 * 60);

    // The right digits wait too, and are not compared: the card stays pending.
    const right = await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry });
    expect(right.status).toBe(429);
    expect((await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: printed.lastFour })).status).toBe(429);
    expect(await counted(holder.userId)).toMatchObject({ failures: 5, lockedUntil: expect.any(Date) });
    expect((await home(t.app, holder.access)).pendingCard).toMatchObject({ isPending: true });
  });

  it('add up when a minute or more apart: each wrong try is recorded, so the fifth still starts the wait', async () => {
    const { holder, printed } = await shippedCard();
    for (let i = 0; i < 4; i += 1) {
      await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: otherDigits(printed.lastFour) });
      await t.db
        .update(attemptLimits)
        .set({ lastTryAt: sql`${attemptLimits.lastTryAt} - interval '2 minutes'`, lastFailureAt: sql`${attemptLimits.lastFailureAt} - interval '2 minutes'` })
        .where(and(eq(attemptLimits.scope, 'card-activation'), eq(attemptLimits.subject, holder.userId)));
    }
    expect((await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: otherDigits(printed.lastFour) })).status).toBe(429);
  });

  it('count in the database: once the wait is over the right digits activate, and the count starts again', async () => {
    const { holder, printed } = await shippedCard();
    for (let i = 0; i < 5; i += 1) await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: otherDigits(printed.lastFour) });
    expect((await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: printed.lastFour })).status).toBe(429);

    await t.db
      .update(attemptLimits)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(and(eq(attemptLimits.scope, 'card-activation'), eq(attemptLimits.subject, holder.userId)));

    const activated = await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry });
    expect(activated.status).toBe(200);
    expect(await counted(holder.userId)).toMatchObject({ failures: 0, lockedUntil: null });
  });

  it('are counted per cardholder: one cardholder locked out does not slow another', async () => {
    const locked = await shippedCard();
    for (let i = 0; i < 5; i += 1) await cardCall(t.app, locked.holder.access, '/verify/card-last-four', { lastFourCard: otherDigits(locked.printed.lastFour) });
    const other = await shippedCard();

    const activation = { lastFourCard: other.printed.lastFour, expiry: other.printed.expiry };
    expect((await cardCall(t.app, other.holder.access, '/activate-card', activation)).status).toBe(200);
  });

  it('a right last 4 does not use up a try', async () => {
    const { holder, printed } = await shippedCard();
    for (let i = 0; i < 4; i += 1) expect((await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: printed.lastFour })).status).toBe(200);
    const wrong = await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: otherExpiry(printed.expiry) });
    expect(wrong.body).toMatchObject({ reason: 'expiryMismatch', attemptsLeft: 4 });
  });
});
