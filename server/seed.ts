/**
 * Idempotent demo data: one lived-in cardholder with a funded account, a virtual card, a physical
 * card on its way, and four months of activity; and a second one whose sign-in needs a texted code.
 * Running it again changes nothing.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { readConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { agreementKinds } from '../contract/identity/types.ts';
import { accounts, addressKeyOf, agreementAcceptances, cards, users } from './db/schema/index.ts';
import { createTransfer, openCardholderLedgerAccount, systemLedgerAccounts, type TransactionKind, transferIdFor } from './features/ledger/index.ts';
import { hashSecret } from './secrets.ts';
import { encryptSsn, ssnHash, type SsnKeys } from './ssn.ts';

export const demoCardholder = {
  email: 'demo@providers.test',
  password: 'Providers2026',
  unlockCode: '2580',
  firstName: 'Maria',
  lastName: 'Lopez',
  /** Her user uuid in the companion benefits app: the sandbox companion host signs her in with it. */
  providersUuid: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70',
  /**
   * A well-known specimen SSN (valid by spec §5's rules, never issued). Registering with it answers
   * CIP_TAKEN, as do her email, phone, address and EBT account id (docs/sandbox.md).
   */
  ssn: '123-45-6789',
  dob: '04/12/1986',
  phone: '5592014477',
  address: { street1: '1420 N Blackstone Ave', street2: 'Apt 12', city: 'Fresno', state: 'CA', zip: '93703' },
  /** The EBT account id of the sandbox companion host's demo user. */
  ebtAccountId: 'EBT-4417-2209',
} as const;

/**
 * The second sandbox cardholder: signing in needs a code texted to his phone (MFA_REQUIRED, 105); the
 * code is in the sandbox outbox (GET /sandbox/outbox?phone=5592017788).
 */
export const mfaCardholder = {
  email: 'jordan@providers.test',
  password: 'Providers2026',
  unlockCode: '1357',
  firstName: 'Jordan',
  lastName: 'Kim',
  /** Valid by spec §5's rules; outside the ranges the test applicants use. */
  ssn: '142-58-3906',
  dob: '09/23/1991',
  phone: '5592017788',
  address: { street1: '2150 E Shields Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93726' },
} as const;

/** One seeded movement, `days` before now: a credit (positive cents) or a debit of the cardholder's ledger account. */
type LedgerSeed = { days: number; cents: number; kind: TransactionKind; counterparty: string | null; location: string | null };

const stores = [
  ['Save Mart', 'Fresno, CA'],
  ['Dollar General', 'Fresno, CA'],
  ['Walgreens', 'Clovis, CA'],
  ['Food 4 Less', 'Fresno, CA'],
  ['Chevron', 'Fresno, CA'],
] as const;

/** Deterministic activity, oldest first: money added, payroll every 14 days, purchases, a cash load, EBT rewards. */
export function demoActivity(): LedgerSeed[] {
  // She opened the account by adding money, before her first purchase (the ledger never goes below zero).
  const entries: LedgerSeed[] = [{ days: 121, cents: 20000, kind: 'card_load', counterparty: null, location: null }];
  for (let day = 120; day >= 1; day -= 1) {
    if (day % 14 === 3) {
      entries.push({ days: day, cents: 61240, kind: 'deposit', counterparty: 'Sunrise Home Care', location: null });
    }
    if (day % 3 === 0) {
      const [store, place] = stores[day % stores.length]!;
      const cents = -(1200 + ((day * 7919) % 5400));
      entries.push({ days: day, cents, kind: 'purchase', counterparty: store, location: place });
    }
    if (day % 30 === 10) {
      entries.push({ days: day, cents: 312, kind: 'ebt_reward', counterparty: null, location: null });
    }
  }
  entries.push({ days: 9, cents: 10000, kind: 'cash_load', counterparty: 'Walgreens', location: 'Clovis, CA' });
  entries.push({ days: 8, cents: -350, kind: 'fee', counterparty: 'Cash load', location: null });
  entries.push({ days: 5, cents: -4000, kind: 'atm_withdrawal', counterparty: null, location: 'Blackstone Ave, Fresno, CA' });
  return entries.sort((a, b) => b.days - a.days);
}

/** Her purchase the store has not settled yet (a hold, seven days at most). */
export const demoHold = { counterparty: 'Save Mart', location: 'Fresno, CA', cents: 1240 } as const;

/**
 * `keys` encrypt and hash her SSN; by default the environment's, as the server reads them, so the
 * server finds her SSN taken.
 */
export async function seedDemoData(db: Database, keys: SsnKeys = readConfig()): Promise<void> {
  await seedLopez(db, keys);
  await seedMfaCardholder(db, keys);
}

async function seedLopez(db: Database, keys: SsnKeys): Promise<void> {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${demoCardholder.email})`);
  if (existing.length > 0) {
    const id = existing[0]!.id;
    // Databases seeded before embedded mode existed get the companion link too.
    await db
      .update(users)
      .set({ providersUuid: demoCardholder.providersUuid })
      .where(and(eq(users.id, id), isNull(users.providersUuid)));
    // Databases seeded before registration existed get her SSN, date of birth and EBT account id.
    await db
      .update(users)
      .set({ ssnEncrypted: encryptSsn(demoCardholder.ssn, keys.ssnEncryptionKey, id), ssnHash: ssnHash(demoCardholder.ssn, keys.ssnHashKey) })
      .where(and(eq(users.id, id), isNull(users.ssnHash)));
    await db.update(users).set({ dob: demoCardholder.dob }).where(and(eq(users.id, id), isNull(users.dob)));
    await db
      .update(users)
      .set({ ebtAccountId: demoCardholder.ebtAccountId })
      .where(and(eq(users.id, id), isNull(users.ebtAccountId)));
    await acceptDemoAgreements(db, id);
    return;
  }

  const [passwordHash, unlockCodeHash] = await Promise.all([
    hashSecret(demoCardholder.password),
    hashSecret(demoCardholder.unlockCode),
  ]);
  const now = Date.now();
  // The id is chosen here: the SSN's ciphertext is bound to it.
  const userId = crypto.randomUUID();
  await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        id: userId,
        email: demoCardholder.email,
        firstName: demoCardholder.firstName,
        lastName: demoCardholder.lastName,
        dob: demoCardholder.dob,
        ssnEncrypted: encryptSsn(demoCardholder.ssn, keys.ssnEncryptionKey, userId),
        ssnHash: ssnHash(demoCardholder.ssn, keys.ssnHashKey),
        phone: demoCardholder.phone,
        ...demoCardholder.address,
        addressKey: addressKeyOf(demoCardholder.address),
        ebtAccountId: demoCardholder.ebtAccountId,
        passwordHash,
        unlockCodeHash,
        providersUuid: demoCardholder.providersUuid,
        registrationWave: 'ebt_rewards_test_group',
      })
      .returning({ id: users.id });
    await acceptDemoAgreements(tx, user!.id);
    const [account] = await tx
      .insert(accounts)
      .values({ userId: user!.id, prn: '400012345678', ebtRewardOwedCents: 412, ebtRewardsClaimedThisPeriodCents: 936 })
      .returning({ id: accounts.id });
    await tx.insert(cards).values([
      { accountId: account!.id, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: '4821', expiry: '09/29' },
      { accountId: account!.id, type: 'PHYSICAL', status: 'SHIPPED', isPending: true, lastFour: '7390', expiry: '11/30' },
    ]);
    await seedActivity(tx, account!.id, demoActivity(), now);
    // A purchase the store has not settled yet: home explains the hold.
    await seedHold(tx, account!.id, demoHold, now);
  });
}

/** She accepted the three agreements when she registered (existing databases get them too). */
async function acceptDemoAgreements(db: Pick<Database, 'insert'>, userId: string): Promise<void> {
  await db
    .insert(agreementAcceptances)
    .values(agreementKinds.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

/** Jordan Kim: a newer cardholder with a virtual card and a few weeks of activity; sign-in needs a texted code. */
async function seedMfaCardholder(db: Database, keys: SsnKeys): Promise<void> {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${mfaCardholder.email})`);
  if (existing.length > 0) return;

  const [passwordHash, unlockCodeHash] = await Promise.all([
    hashSecret(mfaCardholder.password),
    hashSecret(mfaCardholder.unlockCode),
  ]);
  const now = Date.now();
  const userId = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id: userId,
      email: mfaCardholder.email,
      firstName: mfaCardholder.firstName,
      lastName: mfaCardholder.lastName,
      dob: mfaCardholder.dob,
      ssnEncrypted: encryptSsn(mfaCardholder.ssn, keys.ssnEncryptionKey, userId),
      ssnHash: ssnHash(mfaCardholder.ssn, keys.ssnHashKey),
      phone: mfaCardholder.phone,
      ...mfaCardholder.address,
      addressKey: addressKeyOf(mfaCardholder.address),
      passwordHash,
      unlockCodeHash,
      mfaRequired: true,
    });
    await acceptDemoAgreements(tx, userId);
    const [account] = await tx.insert(accounts).values({ userId, prn: '400087654321' }).returning({ id: accounts.id });
    await tx
      .insert(cards)
      .values({ accountId: account!.id, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: '3318', expiry: '02/30' });
    const activity: LedgerSeed[] = [
      { days: 20, cents: 48000, kind: 'deposit', counterparty: 'Valley Transit', location: null },
      { days: 18, cents: -2315, kind: 'purchase', counterparty: 'Save Mart', location: 'Fresno, CA' },
      { days: 12, cents: -4120, kind: 'purchase', counterparty: 'Chevron', location: 'Fresno, CA' },
      { days: 6, cents: 48000, kind: 'deposit', counterparty: 'Valley Transit', location: null },
      { days: 3, cents: -1899, kind: 'purchase', counterparty: 'Walgreens', location: 'Clovis, CA' },
    ];
    await seedActivity(tx, account!.id, activity, now);
  });
}

/**
 * The history, through the ledger like any money (oldest first, so every purchase is covered). Each
 * transfer id comes from the account and the entry's place, so seeding again adds nothing.
 */
async function seedActivity(db: Database, accountId: string, entries: LedgerSeed[], now: number): Promise<void> {
  const cardholder = await openCardholderLedgerAccount(db, accountId);
  const { settlement, fee_revenue: feeRevenue, rewards_payable: rewardsPayable } = systemLedgerAccounts;
  for (const [index, entry] of entries.entries()) {
    const other = entry.kind === 'fee' ? feeRevenue : entry.kind === 'ebt_reward' ? rewardsPayable : settlement;
    const credit = entry.cents > 0;
    const answer = await createTransfer(db, {
      id: transferIdFor({ caller: 'seed', operation: accountId }, String(index)),
      debit: credit ? other : cardholder,
      credit: credit ? cardholder : other,
      amountCents: Math.abs(entry.cents),
      kind: entry.kind,
      counterparty: entry.counterparty,
      location: entry.location,
      phase: 'posted',
      // Spread entries over the day so ordering is stable and times look real.
      occurredAt: new Date(now - entry.days * 86_400_000 + (index % 9) * 3_600_000),
    });
    if (answer.result !== 'created' && answer.result !== 'exists') throw new Error(`Seeding the ledger failed: ${answer.result}`);
  }
}

/** A card authorization two hours ago, held for seven days unless the store settles it first. */
async function seedHold(
  db: Database,
  accountId: string,
  hold: { counterparty: string; location: string; cents: number },
  now: number,
): Promise<void> {
  const answer = await createTransfer(db, {
    id: transferIdFor({ caller: 'seed', operation: accountId }, 'hold'),
    debit: await openCardholderLedgerAccount(db, accountId),
    credit: systemLedgerAccounts.settlement,
    amountCents: hold.cents,
    kind: 'purchase',
    counterparty: hold.counterparty,
    location: hold.location,
    phase: 'pending',
    timeoutSeconds: 7 * 86_400,
    occurredAt: new Date(now - 2 * 3_600_000),
  });
  if (answer.result !== 'created' && answer.result !== 'exists') throw new Error(`Seeding the ledger failed: ${answer.result}`);
}
