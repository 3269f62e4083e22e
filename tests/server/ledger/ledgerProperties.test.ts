/**
 * Property: any sequence of deposits, purchases, fees, holds (with and without timeouts), posts (all,
 * part, or more: a purchase's tip), voids, expiries, reversals, cushions, retries of earlier requests and reuses of their ids
 * keeps every ledger invariant, and a model in plain TypeScript predicts each answer and each
 * cardholder's available balance exactly. On in-memory PGlite, with a fixed seed and a clock of its own.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  balances,
  createTransfer,
  expirePendingTransfers,
  invariantReport,
  postPendingTransfer,
  reverseTransfer,
  setCushion,
  systemLedgerAccounts,
  type Transfer,
  transferIdFor,
  voidPendingTransfer,
} from '../../../server/features/ledger/index.ts';
import { at, type LedgerDatabase, newCardholder, pgliteLedgerDatabase } from './helpers.ts';

const cardholderCount = 3;
const system = { settlement: systemLedgerAccounts.settlement, fees: systemLedgerAccounts.fee_revenue };

type Op =
  | { op: 'deposit'; who: number; cents: number }
  | { op: 'spend'; who: number; cents: number; to: 'settlement' | 'fees'; hold: boolean; timeout: number | null }
  /** `open`: one of the holds not resolved yet (else any, to meet the refusals). */
  | { op: 'post'; pick: number; open: boolean; cents: number | null }
  | { op: 'void'; pick: number; open: boolean }
  | { op: 'reverse'; pick: number }
  | { op: 'retry'; pick: number }
  | { op: 'reuseId'; pick: number; who: number; cents: number }
  | { op: 'cushion'; who: number; cents: number }
  | { op: 'tick'; seconds: number }
  | { op: 'sweep' };

const who = fc.nat(cardholderCount - 1);
const cents = fc.integer({ min: 1, max: 5000 });
const pick = fc.nat(1000);
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('deposit' as const), who, cents }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('spend' as const),
      who,
      cents: fc.integer({ min: 1, max: 3000 }),
      to: fc.constantFrom('settlement' as const, 'fees' as const),
      hold: fc.boolean(),
      timeout: fc.option(fc.integer({ min: 1, max: 120 })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('post' as const), pick, open: fc.boolean(), cents: fc.option(fc.integer({ min: 1, max: 3500 }), { freq: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('void' as const), pick, open: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reverse' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('retry' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reuseId' as const), pick, who, cents }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cushion' as const), who, cents: fc.integer({ min: 0, max: 1000 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 90 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sweep' as const) }) },
);

/** A write as sent: retrying one sends exactly this again. */
type Request =
  | { type: 'create'; id: string; debit: string; credit: string; cents: number; kind: 'deposit' | 'purchase' | 'fee'; hold: boolean; timeout: number | null }
  | { type: 'post'; id: string; pendingId: string; cents: number | null }
  | { type: 'void'; id: string; pendingId: string }
  | { type: 'reverse'; id: string; reversesId: string };

/** A transfer the model knows of (one a request created). */
type ModelTransfer = {
  id: string;
  /** What the database compares on a retry of its id. */
  signature: string;
  debit: string;
  credit: string;
  cents: number;
  kind: Transfer['kind'];
  phase: Transfer['phase'];
  /** Seconds on the test clock. */
  timeoutAt: number | null;
  /** For a pending one: how it was resolved ('expired' once its expiry is recorded). */
  resolution: 'posted' | 'voided' | 'expired' | null;
  reversed: boolean;
  /** It reverses another transfer. */
  reversal?: boolean;
  row: Transfer;
};

type CardholderModel = { creditsPosted: number; debitsPosted: number; cushion: number };

/** The ledger's rules, by hand, over the cardholders of one run. */
class Model {
  now = 0;
  readonly transfers = new Map<string, ModelTransfer>();
  readonly cardholders = new Map<string, CardholderModel>();

  constructor(cardholderIds: string[]) {
    for (const id of cardholderIds) this.cardholders.set(id, { creditsPosted: 0, debitsPosted: 0, cushion: 0 });
  }

  timedOut(transfer: ModelTransfer): boolean {
    return transfer.phase === 'pending' && transfer.resolution === null && transfer.timeoutAt !== null && transfer.timeoutAt <= this.now;
  }

  available(cardholder: string): number {
    const account = this.cardholders.get(cardholder)!;
    let held = 0;
    for (const transfer of this.transfers.values()) {
      if (transfer.phase === 'pending' && transfer.debit === cardholder && transfer.resolution === null && !this.timedOut(transfer)) held += transfer.cents;
    }
    return account.creditsPosted - account.debitsPosted - held + account.cushion;
  }

  /** A write with a floor account to debit records that account's timed-out holds first. */
  recordExpiries(debit: string): void {
    if (!this.cardholders.has(debit)) return;
    for (const transfer of this.transfers.values()) if (transfer.debit === debit && this.timedOut(transfer)) transfer.resolution = 'expired';
  }

  sweep(): number {
    let voided = 0;
    for (const transfer of this.transfers.values()) {
      if (this.timedOut(transfer)) {
        transfer.resolution = 'expired';
        voided += 1;
      }
    }
    return voided;
  }

  canDebit(account: string, cents: number): boolean {
    return !this.cardholders.has(account) || this.available(account) >= cents;
  }

  /** Posted effects on the cardholders' columns (system accounts are left to the invariant report). */
  post(debit: string, credit: string, cents: number): void {
    const from = this.cardholders.get(debit);
    const to = this.cardholders.get(credit);
    if (from) from.debitsPosted += cents;
    if (to) to.creditsPosted += cents;
  }

  signature(request: Request): string {
    if (request.type === 'create') {
      const { id: _id, ...fields } = request;
      return JSON.stringify(fields);
    }
    if (request.type === 'post') {
      const pending = this.transfers.get(request.pendingId)!;
      return JSON.stringify({ type: 'post', pendingId: request.pendingId, cents: request.cents ?? pending.cents });
    }
    const { id: _id, ...fields } = request;
    return JSON.stringify(fields);
  }

  /** The account a request may debit beyond what is held for it: its expired holds are released first. */
  releases(request: Request): string | null {
    if (request.type === 'create') return request.debit;
    if (request.type === 'reverse') return this.transfers.get(request.reversesId)!.credit;
    if (request.type === 'void' || request.cents === null) return null;
    // A purchase's post for more than its hold (a tip) takes the extra from the balance.
    const pending = this.transfers.get(request.pendingId)!;
    return request.cents > pending.cents && pending.kind === 'purchase' ? pending.debit : null;
  }

  /** The answer the ledger must give to this request now, with its effects on the model. */
  predict(request: Request): { result: string; created?: Omit<ModelTransfer, 'row' | 'signature'> } {
    const releases = this.releases(request);
    if (releases) this.recordExpiries(releases);
    const existing = this.transfers.get(request.id);
    if (existing) return { result: existing.signature === this.signature(request) ? 'exists' : 'exists_with_different_fields' };

    if (request.type === 'create') {
      if (!this.canDebit(request.debit, request.cents)) return { result: 'exceeds_credits' };
      if (!request.hold) this.post(request.debit, request.credit, request.cents);
      return {
        result: 'created',
        created: {
          id: request.id,
          debit: request.debit,
          credit: request.credit,
          cents: request.cents,
          kind: request.kind,
          phase: request.hold ? 'pending' : 'posted',
          timeoutAt: request.hold && request.timeout !== null ? this.now + request.timeout : null,
          resolution: null,
          reversed: false,
        },
      };
    }
    if (request.type === 'post' || request.type === 'void') {
      const pending = this.transfers.get(request.pendingId)!;
      if (pending.phase !== 'pending') return { result: 'pending_transfer_not_pending' };
      if (pending.resolution === 'posted') return { result: 'pending_transfer_already_posted' };
      if (pending.resolution === 'voided') return { result: 'pending_transfer_already_voided' };
      if (pending.resolution === 'expired' || this.timedOut(pending)) {
        pending.resolution = 'expired';
        return { result: 'pending_transfer_expired' };
      }
      const amount = request.type === 'post' ? (request.cents ?? pending.cents) : pending.cents;
      if (amount > pending.cents && pending.kind !== 'purchase') return { result: 'exceeds_pending_transfer_amount' };
      // The post releases the hold itself: only the extra must be available.
      if (amount > pending.cents && !this.canDebit(pending.debit, amount - pending.cents)) return { result: 'exceeds_credits' };
      pending.resolution = request.type === 'post' ? 'posted' : 'voided';
      if (request.type === 'post') this.post(pending.debit, pending.credit, amount);
      const phase = request.type === 'post' ? 'post_pending' : 'void_pending';
      const { debit, credit, kind } = pending;
      return { result: 'created', created: { id: request.id, debit, credit, cents: amount, kind, phase, timeoutAt: null, resolution: null, reversed: false } };
    }
    const original = this.transfers.get(request.reversesId)!;
    if (original.phase !== 'posted' && original.phase !== 'post_pending') return { result: 'transfer_not_posted' };
    if (original.reversal) return { result: 'transfer_is_reversal' };
    if (original.reversed) return { result: 'transfer_already_reversed' };
    if (!this.canDebit(original.credit, original.cents)) return { result: 'exceeds_credits' };
    original.reversed = true;
    this.post(original.credit, original.debit, original.cents);
    return {
      result: 'created',
      created: { id: request.id, debit: original.credit, credit: original.debit, cents: original.cents, kind: 'reversal', phase: 'posted', timeoutAt: null, resolution: null, reversed: false, reversal: true },
    };
  }
}

let database: LedgerDatabase;
let runs = 0;

beforeAll(async () => {
  database = await pgliteLedgerDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Sends a request to the ledger at the model's time. */
function send(request: Request, now: Date) {
  const { db } = database;
  switch (request.type) {
    case 'create': {
      const common = { id: request.id, debit: request.debit, credit: request.credit, amountCents: request.cents, kind: request.kind, now };
      return request.hold
        ? createTransfer(db, { ...common, phase: 'pending', ...(request.timeout !== null && { timeoutSeconds: request.timeout }) })
        : createTransfer(db, { ...common, phase: 'posted' });
    }
    case 'post':
      return postPendingTransfer(db, { id: request.id, pendingId: request.pendingId, ...(request.cents !== null && { amountCents: request.cents }), now });
    case 'void':
      return voidPendingTransfer(db, { id: request.id, pendingId: request.pendingId, now });
    case 'reverse':
      return reverseTransfer(db, { id: request.id, reversesId: request.reversesId, now });
  }
}

async function runSequence(ops: Op[]): Promise<void> {
  const { db } = database;
  runs += 1;
  const cardholders: string[] = [];
  for (let i = 0; i < cardholderCount; i += 1) cardholders.push(await newCardholder(db));
  const model = new Model(cardholders);
  const requests: Request[] = [];
  let ids = 0;
  const nextId = () => transferIdFor({ caller: `property run ${runs}`, operation: 'test' }, String((ids += 1)));
  const created = (filter: (transfer: ModelTransfer) => boolean) => [...model.transfers.values()].filter(filter);
  const choose = <T>(list: T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);

  for (const [step, op] of ops.entries()) {
    let request: Request | undefined;
    if (op.op === 'tick') model.now += op.seconds;
    else if (op.op === 'sweep') {
      expect(await expirePendingTransfers(db, at(model.now)), `step ${step}: sweep`).toBe(model.sweep());
    } else if (op.op === 'cushion') {
      const cardholder = cardholders[op.who]!;
      model.recordExpiries(cardholder);
      const account = model.cardholders.get(cardholder)!;
      const inUse = model.available(cardholder) - account.cushion + op.cents < 0;
      if (!inUse) account.cushion = op.cents;
      const answer = await setCushion(db, { ledgerAccountId: cardholder, cushionCents: op.cents, now: at(model.now) });
      expect(answer.result, `step ${step}: cushion`).toBe(inUse ? 'cushion_in_use' : 'updated');
    } else if (op.op === 'deposit') {
      request = { type: 'create', id: nextId(), debit: system.settlement, credit: cardholders[op.who]!, cents: op.cents, kind: 'deposit', hold: false, timeout: null };
    } else if (op.op === 'spend') {
      const kind = op.to === 'fees' ? 'fee' : 'purchase';
      const timeout = op.hold ? op.timeout : null;
      request = { type: 'create', id: nextId(), debit: cardholders[op.who]!, credit: system[op.to], cents: op.cents, kind, hold: op.hold, timeout };
    } else if (op.op === 'post' || op.op === 'void') {
      const pending = choose(created((transfer) => transfer.phase === 'pending' && (!op.open || transfer.resolution === null)), op.pick);
      if (pending) {
        request = op.op === 'post' ? { type: 'post', id: nextId(), pendingId: pending.id, cents: op.cents } : { type: 'void', id: nextId(), pendingId: pending.id };
      }
    } else if (op.op === 'reverse') {
      const original = choose(created(() => true), op.pick);
      if (original) request = { type: 'reverse', id: nextId(), reversesId: original.id };
    } else if (op.op === 'retry') {
      request = choose(requests, op.pick);
    } else {
      const earlier = choose(requests, op.pick);
      if (earlier) request = { type: 'create', id: earlier.id, debit: system.settlement, credit: cardholders[op.who]!, cents: op.cents, kind: 'deposit', hold: false, timeout: null };
    }
    if (!request) continue;
    requests.push(request);

    const signature = model.signature(request);
    const predicted = model.predict(request);
    const answer = await send(request, at(model.now));
    expect(answer.result, `step ${step}: ${JSON.stringify(request)}`).toBe(predicted.result);
    if (answer.result === 'created') {
      const row = (answer as { transfer: Transfer }).transfer;
      expect(row).toMatchObject({ amountCents: predicted.created!.cents, debitLedgerAccountId: predicted.created!.debit, phase: predicted.created!.phase });
      model.transfers.set(request.id, { ...predicted.created!, signature, row });
    }
    if (answer.result === 'exists') expect((answer as { transfer: Transfer }).transfer).toEqual(model.transfers.get(request.id)!.row);

    for (const cardholder of cardholders) {
      const balance = await balances(db, cardholder, at(model.now));
      expect(balance!.availableCents, `step ${step}: available of cardholder ${cardholders.indexOf(cardholder)}`).toBe(model.available(cardholder));
      expect(balance!.availableCents).toBeGreaterThanOrEqual(0);
    }
  }
  // Every timed hold of this run expires before the next run (whose clock starts again at 0) begins.
  model.now += 1000;
  expect(await expirePendingTransfers(db, at(model.now)), 'the closing sweep').toBe(model.sweep());
  const report = await invariantReport(db);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

it('keeps every invariant and the model\'s balances through random sequences of ledger writes', async () => {
  await fc.assert(fc.asyncProperty(fc.array(opArbitrary, { minLength: 20, maxLength: 40, size: 'max' }), runSequence), {
    seed: 20260302,
    numRuns: 30,
  });
}, 120_000);
