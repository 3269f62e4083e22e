/**
 * Idempotent demo data: one lived-in cardholder with a funded account, an active virtual card, an
 * active physical card and four months of activity; a second one whose sign-in needs a texted code;
 * and four whose physical cards are in the other states of a card's life (cardStateCardholders).
 * Running it again changes nothing.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { readConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { agreementKinds, agreementVersions } from '../contract/identity/types.ts';
import { accounts, addressKeyOf, agreementAcceptances, cards, users } from './db/schema/index.ts';
import { createTransfer, openCardholderLedgerAccount, systemLedgerAccounts, type TransactionKind, transferIdFor } from './features/ledger/index.ts';
import { cardDeliveryWindow, usCalendarDay } from '../contract/shared/businessDays.ts';
import { type FeeName, fees } from '../contract/shared/fees.ts';
import { hashSecret } from './secrets.ts';
import { sealDob } from './datesOfBirth.ts';
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
  entries.push({ days: 8, cents: -fees.cashReload.cents, kind: 'fee', counterparty: 'cashReload' satisfies FeeName, location: null });
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
  await seedCardStateCardholders(db, keys);
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
    await db.update(users).set({ dob: sealDob(demoCardholder.dob, keys.ssnEncryptionKey, id) }).where(and(eq(users.id, id), isNull(users.dob)));
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
        dob: sealDob(demoCardholder.dob, keys.ssnEncryptionKey, userId),
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
      { accountId: account!.id, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: '4821', expiry: printedExpiry('09', 3), orderedAt: new Date(now - 121 * 86_400_000) },
      {
        accountId: account!.id,
        type: 'PHYSICAL',
        status: 'ACTIVE',
        isActive: true,
        lastFour: '7390',
        expiry: printedExpiry('11', 4),
        orderedAt: new Date(now - 100 * 86_400_000),
        shippedOn: usCalendarDay(new Date(now - 95 * 86_400_000)),
        deliveredOn: usCalendarDay(new Date(now - 88 * 86_400_000)),
      },
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
    .values(agreementKinds.map((kind) => ({ userId, kind, version: agreementVersions[kind] })))
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
      dob: sealDob(mfaCardholder.dob, keys.ssnEncryptionKey, userId),
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
      .values({ accountId: account!.id, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: '3318', expiry: printedExpiry('02', 4) });
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
 * transfer id comes from the account and the entry's place, so seeding again adds nothing. Answers the
 * transfer ids, in the entries' order.
 */
async function seedActivity(db: Database, accountId: string, entries: LedgerSeed[], now: number): Promise<string[]> {
  const cardholder = await openCardholderLedgerAccount(db, accountId);
  const ids: string[] = [];
  const { settlement, fee_revenue: feeRevenue, rewards_payable: rewardsPayable } = systemLedgerAccounts;
  for (const [index, entry] of entries.entries()) {
    const other = entry.kind === 'fee' ? feeRevenue : entry.kind === 'ebt_reward' ? rewardsPayable : settlement;
    const credit = entry.cents > 0;
    const id = transferIdFor({ caller: 'seed', operation: accountId }, String(index));
    ids.push(id);
    const answer = await createTransfer(db, {
      id,
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
  return ids;
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

/** What the seeded physical card of a card-state cardholder is doing. */
export type SeededCardState = 'shipped' | 'locked' | 'lost' | 'stolen';

/**
 * The expiry printed on a seeded card, `MM/YY`, `yearsAhead` years after the year the data is seeded:
 * seeded cards stay in date, so Ana's and Marcus's can always be activated (activation refuses a past
 * expiry).
 */
function printedExpiry(month: string, yearsAhead: number): string {
  return `${month}/${String((new Date().getUTCFullYear() + yearsAhead) % 100).padStart(2, '0')}`;
}

/**
 * Cardholders whose physical cards are in each state of a card's life (docs/sandbox.md "Seeded
 * cardholders"), each with an active virtual card and a little money. They sign in with the demo
 * password and unlock code. Printed on each physical card (last 4, expiry): GET /sandbox/cards?email=.
 * - shipped: ordered 8 days ago ($5), shipped 3 days ago, ready to activate with 5120 and its expiry.
 * - locked: active and locked by her.
 * - lost: reported lost yesterday; its free replacement is ordered, not shipped yet.
 * - stolen: reported stolen 6 days ago; its replacement shipped yesterday, ready to activate (2694).
 */
export const cardStateCardholders = [
  {
    state: 'shipped',
    email: 'ana@providers.test',
    firstName: 'Ana',
    lastName: 'Torres',
    ssn: '143-27-5810',
    dob: '02/17/1988',
    phone: '5592015501',
    address: { street1: '3315 E Belmont Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93702' },
    prn: '400011110001',
    physical: { lastFour: '5120', expiry: printedExpiry('08', 4) },
  },
  {
    state: 'locked',
    email: 'luis@providers.test',
    firstName: 'Luis',
    lastName: 'Ramirez',
    ssn: '144-36-2917',
    dob: '11/02/1979',
    phone: '5592015502',
    address: { street1: '845 N Fulton St', street2: 'Unit 3', city: 'Fresno', state: 'CA', zip: '93728' },
    prn: '400011110002',
    physical: { lastFour: '8843', expiry: printedExpiry('03', 4) },
  },
  {
    state: 'lost',
    email: 'grace@providers.test',
    firstName: 'Grace',
    lastName: 'Chen',
    ssn: '145-48-3026',
    dob: '06/30/1994',
    phone: '5592015503',
    address: { street1: '1710 W Shaw Ave', street2: 'Apt 204', city: 'Fresno', state: 'CA', zip: '93711' },
    prn: '400011110003',
    physical: { lastFour: '6631', expiry: printedExpiry('05', 3) },
    replacement: { lastFour: '1948', expiry: printedExpiry('11', 4) },
  },
  {
    state: 'stolen',
    email: 'marcus@providers.test',
    firstName: 'Marcus',
    lastName: 'Reed',
    ssn: '146-52-7739',
    dob: '01/09/1985',
    phone: '5592015504',
    address: { street1: '2604 E Ashlan Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93726' },
    prn: '400011110004',
    physical: { lastFour: '4407', expiry: printedExpiry('07', 3) },
    replacement: { lastFour: '2694', expiry: printedExpiry('10', 4) },
  },
] as const satisfies readonly {
  state: SeededCardState;
  email: string;
  firstName: string;
  lastName: string;
  ssn: string;
  dob: string;
  phone: string;
  address: { street1: string; street2: string; city: string; state: string; zip: string };
  prn: string;
  physical: { lastFour: string; expiry: string };
  replacement?: { lastFour: string; expiry: string };
}[];

type CardStateCardholder = (typeof cardStateCardholders)[number];

async function seedCardStateCardholders(db: Database, keys: SsnKeys): Promise<void> {
  const missing: CardStateCardholder[] = [];
  for (const cardholder of cardStateCardholders) {
    const existing = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${cardholder.email})`);
    if (existing.length === 0) missing.push(cardholder);
  }
  if (missing.length === 0) return;
  // One hash of each for all of them: they share the demo password and unlock code.
  const [passwordHash, unlockCodeHash] = await Promise.all([hashSecret(demoCardholder.password), hashSecret(demoCardholder.unlockCode)]);
  for (const cardholder of missing) await seedCardStateCardholder(db, keys, cardholder, { passwordHash, unlockCodeHash });
}

const daysAgo = (now: number, days: number) => new Date(now - days * 86_400_000);

async function seedCardStateCardholder(
  db: Database,
  keys: SsnKeys,
  cardholder: CardStateCardholder,
  hashes: { passwordHash: string; unlockCodeHash: string },
): Promise<void> {
  const now = Date.now();
  const userId = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id: userId,
      email: cardholder.email,
      firstName: cardholder.firstName,
      lastName: cardholder.lastName,
      dob: sealDob(cardholder.dob, keys.ssnEncryptionKey, userId),
      ssnEncrypted: encryptSsn(cardholder.ssn, keys.ssnEncryptionKey, userId),
      ssnHash: ssnHash(cardholder.ssn, keys.ssnHashKey),
      phone: cardholder.phone,
      ...cardholder.address,
      addressKey: addressKeyOf(cardholder.address),
      ...hashes,
    });
    await acceptDemoAgreements(tx, userId);
    const [account] = await tx.insert(accounts).values({ userId, prn: cardholder.prn }).returning({ id: accounts.id });
    const accountId = account!.id;
    const activity: LedgerSeed[] = [
      { days: 30, cents: 52000, kind: 'deposit', counterparty: 'Fresno Unified', location: null },
      { days: 21, cents: -3417, kind: 'purchase', counterparty: 'Food 4 Less', location: 'Fresno, CA' },
      { days: 14, cents: 52000, kind: 'deposit', counterparty: 'Fresno Unified', location: null },
      { days: 10, cents: -2688, kind: 'purchase', counterparty: 'Walgreens', location: 'Fresno, CA' },
    ];
    // Ana paid the $5 physical card fee when she ordered hers (a lost or stolen card's replacement is free).
    if (cardholder.state === 'shipped') activity.push({ days: 8, cents: -fees.physicalCard.cents, kind: 'fee', counterparty: 'physicalCard' satisfies FeeName, location: null });
    const transferIds = await seedActivity(tx, accountId, activity, now);
    const feeTransferId = cardholder.state === 'shipped' ? transferIds.at(-1)! : null;

    const virtualCard = { accountId, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: String(1000 + (Number(cardholder.prn) % 9000)), expiry: printedExpiry('04', 4) } as const;
    await tx.insert(cards).values({ ...virtualCard, orderedAt: daysAgo(now, 30) });
    await seedPhysicalCards(tx, accountId, cardholder, feeTransferId, now);
  });
}

/** The cardholder's physical card in its state, and its replacement when it has one. */
async function seedPhysicalCards(
  tx: Database,
  accountId: string,
  cardholder: CardStateCardholder,
  feeTransferId: string | null,
  now: number,
): Promise<void> {
  const orderedDaysAgo = { shipped: 8, locked: 120, lost: 200, stolen: 300 }[cardholder.state];
  const ordered = daysAgo(now, orderedDaysAgo);
  const window = cardDeliveryWindow(usCalendarDay(ordered));
  const card = {
    accountId,
    type: 'PHYSICAL',
    ...cardholder.physical,
    orderedAt: ordered,
    deliveryEarliest: window.earliest,
    deliveryLatest: window.latest,
    shippedOn: usCalendarDay(daysAgo(now, orderedDaysAgo - 5)),
  } as const;
  if (cardholder.state === 'shipped') {
    await tx.insert(cards).values({ ...card, status: 'SHIPPED', isPending: true, shippedOn: usCalendarDay(daysAgo(now, 3)), feeTransferId });
    return;
  }
  const delivered = { deliveredOn: usCalendarDay(daysAgo(now, orderedDaysAgo - 12)) };
  if (cardholder.state === 'locked') {
    await tx.insert(cards).values({ ...card, ...delivered, status: 'ACTIVE', isActive: true, frozen: true });
    return;
  }
  const [blocked] = await tx
    .insert(cards)
    .values({ ...card, ...delivered, status: cardholder.state === 'lost' ? 'LOST' : 'STOLEN' })
    .returning({ id: cards.id });
  const reportedDaysAgo = cardholder.state === 'lost' ? 1 : 6;
  const reported = daysAgo(now, reportedDaysAgo);
  const replacementWindow = cardDeliveryWindow(usCalendarDay(reported));
  await tx.insert(cards).values({
    accountId,
    type: 'PHYSICAL',
    status: 'SHIPPED',
    isPending: true,
    ...cardholder.replacement,
    orderedAt: reported,
    deliveryEarliest: replacementWindow.earliest,
    deliveryLatest: replacementWindow.latest,
    // The stolen card's replacement shipped yesterday; the lost one's is not shipped yet.
    shippedOn: cardholder.state === 'stolen' ? usCalendarDay(daysAgo(now, 1)) : null,
    replacesCardId: blocked!.id,
  });
}
