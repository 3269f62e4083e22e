/** Account reads for the home and user calls. Balances are always summed from the ledger. */
import { desc, eq, sql } from 'drizzle-orm';
import type { Card, HomeAnswer, User } from '../contract/api.ts';
import { StatusCode } from '../contract/statusCodes.ts';
import type { Database } from './db/database.ts';
import { accounts, cards, ledgerTransactions, users } from './db/schema.ts';

const recentActivityCount = 20;
const oneYearMs = 365 * 24 * 60 * 60 * 1000;

function toCard(row: typeof cards.$inferSelect): Card {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    frozen: row.frozen,
    isActive: row.isActive,
    isPending: row.isPending,
    lastFour: row.lastFour,
  };
}

export async function loadHome(db: Database, userId: string): Promise<HomeAnswer | null> {
  const [row] = await db
    .select({ account: accounts, registrationWave: users.registrationWave })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(eq(accounts.userId, userId));
  if (!row) return null;
  const { account } = row;

  const [cardRows, transactionRows, [totals]] = await Promise.all([
    db.select().from(cards).where(eq(cards.accountId, account.id)).orderBy(cards.createdAt),
    db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.accountId, account.id))
      .orderBy(desc(ledgerTransactions.occurredAt))
      .limit(recentActivityCount),
    db
      .select({
        balance: sql<string>`coalesce(sum(${ledgerTransactions.amountCents}), 0)`,
        deposits: sql<string>`count(*) filter (where ${ledgerTransactions.kind} = 'deposit')`,
        credits: sql<string>`count(*) filter (where ${ledgerTransactions.amountCents} > 0)`,
      })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.accountId, account.id)),
  ]);

  const cardList = cardRows.map(toCard);
  const pendingCard = cardList.find((card) => card.isPending) ?? null;
  const virtualCard = cardList.find((card) => card.type === 'VIRTUAL');
  const hasFundedAnyKind = Number(totals?.credits ?? 0) > 0;

  return {
    statusCode: StatusCode.SUCCESS,
    accountOverview: {
      balance: Number(totals?.balance ?? 0),
      cards: cardList,
      transactions: transactionRows.map((t) => ({
        id: t.id,
        amount: t.amountCents,
        timestamp: t.occurredAt.toISOString(),
        description: t.description,
        location: t.location,
      })),
      prn: account.prn,
      flags: { hasFunded: Number(totals?.deposits ?? 0) > 0, hasFundedAnyKind },
      ebtRewardOwed: account.ebtRewardOwedCents,
      ebtRewardsClaimedThisPeriod: account.ebtRewardsClaimedThisPeriodCents,
    },
    registrationWave: row.registrationWave,
    pendingCard,
    virtualCard: virtualCard ? { id: virtualCard.id } : null,
    prn: account.prn,
    hasFundedAnyKind,
  };
}

function changedWithinAYear(at: Date | null): boolean {
  return at !== null && Date.now() - at.getTime() < oneYearMs;
}

export async function loadUser(db: Database, userId: string): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  return {
    fullName: [user.firstName, user.middleName, user.lastName].filter(Boolean).join(' '),
    email: user.email,
    phone: user.phone,
    address: { street1: user.street1, street2: user.street2, city: user.city, state: user.state, zip: user.zip },
    isInternal: user.isInternal,
    canUpdateAddress: !changedWithinAYear(user.addressChangedAt),
    canUpdatePhone: !changedWithinAYear(user.phoneChangedAt),
  };
}

