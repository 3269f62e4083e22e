/**
 * Ids the ledger knows without a lookup: the system accounts' fixed ones, and the transfer ids it
 * derives instead of drawing (the same input always gives the same id, so a repeated request, or a
 * second process doing the same work, meets the first one's transfer).
 */
import { createHash } from 'node:crypto';
import type { SystemLedgerAccountKind } from '../../db/schema/index.ts';

/** The system accounts, one per kind, with the ids migration 0007 gave them (no lookup needed). */
export const systemLedgerAccounts: Readonly<Record<SystemLedgerAccountKind, string>> = {
  settlement: '00000000-0000-8000-8000-000000000001',
  fee_revenue: '00000000-0000-8000-8000-000000000002',
  rewards_payable: '00000000-0000-8000-8000-000000000003',
  cushion_funding: '00000000-0000-8000-8000-000000000004',
};

const systemIds = new Set(Object.values(systemLedgerAccounts));

/**
 * Whether the id is a system account's. System accounts have no floor and keep no balance columns
 * (their balances are the sums of their transfers), so a write does not lock them.
 */
export const isSystemLedgerAccount = (id: string): boolean => systemIds.has(id);

/**
 * Who asked and what for: an Idempotency-Key means something only within its caller's own calls (two
 * cardholders may both send "1"). `caller` is the user id (or a partner's), `operation` the call, e.g.
 * 'POST /load-card'; a call that makes several transfers names each (`'POST /load-card fee'`).
 */
export type IdempotencyScope = { caller: string; operation: string };

/** A UUID from SHA-256 of the parts (RFC 9562 version 8, the custom one; like version 5, but SHA-256). */
function uuidOf(parts: string[]): string {
  // JSON keeps the parts apart: ['a b', 'c'] and ['a', 'b c'] hash differently.
  const bytes = createHash('sha256').update(JSON.stringify(parts)).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The transfer id for an HTTP `Idempotency-Key`: the same key from the same caller for the same
 * operation is the same transfer, so a retry answers 'exists' (same body) or
 * 'exists_with_different_fields' (another body) and never moves money twice.
 */
export function transferIdFor(scope: IdempotencyScope, idempotencyKey: string): string {
  // An empty key would make every keyless request of a caller one and the same transfer.
  if (idempotencyKey === '') throw new RangeError('An Idempotency-Key must not be empty.');
  return uuidOf(['idempotency-key', scope.caller, scope.operation, idempotencyKey]);
}

/** The void that records a pending transfer's expiry: whoever notices it first writes this one row. */
export function expiryTransferId(pendingId: string): string {
  return uuidOf(['expiry', pendingId]);
}
