/**
 * Cards (server/features/cards, docs/decisions.md "Cards"): the card API's row per card, and the
 * sandbox card processor's own tables. The card API keeps only what it must check or show: the last 4
 * digits and the expiry (activation compares them), never the card number, CVV or PIN, which live with
 * the processor (server/partners/processor.ts derives the sandbox card numbers and keeps only PIN hashes).
 */
import { type AnyPgColumn, boolean, check, date, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { accounts } from './home.ts';
import { transfers } from './ledger.ts';

export const cards = pgTable('cards', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  type: text('type', { enum: ['VIRTUAL', 'PHYSICAL'] }).notNull(),
  /** Spec §3: SHIPPED while a physical card is on its way and not activated; LOST or STOLEN once reported (for good). */
  status: text('status', { enum: ['ACTIVE', 'LOST', 'SHIPPED', 'STOLEN'] }).notNull(),
  /** Locked by the cardholder (temporary, reversible). */
  frozen: boolean('frozen').notNull().default(false),
  /** Can be used: activated, not lost or stolen, not stopped by its replacement. */
  isActive: boolean('is_active').notNull().default(false),
  /** A physical card ordered and not yet activated (one per account at a time: cards_one_pending_physical). */
  isPending: boolean('is_pending').notNull().default(false),
  /** As printed; the API answers null while the card is pending (the cardholder proves they hold it by typing it). */
  lastFour: text('last_four').notNull(),
  /** 'MM/YY' as printed (cards_expiry_month_year). */
  expiry: text('expiry').notNull(),
  /** When it was ordered (the registration, for a virtual card): its delivery window counts from that day. */
  orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull().defaultNow(),
  /** A physical card's delivery window, 10 and 15 US business days after the order day. */
  deliveryEarliest: date('delivery_earliest', { mode: 'string' }),
  deliveryLatest: date('delivery_latest', { mode: 'string' }),
  /** Reported by the processor (sandbox event card.shipped) and the carrier (card.delivered). */
  shippedOn: date('shipped_on', { mode: 'string' }),
  deliveredOn: date('delivered_on', { mode: 'string' }),
  /** The card this one replaces (lost, stolen or damaged); unique, so a card has one replacement. */
  replacesCardId: uuid('replaces_card_id').references((): AnyPgColumn => cards.id),
  /** When its replacement stopped it (the replacement shipped or was activated): no longer usable. */
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  /**
   * The card fee's ledger transfer (transferIdFor the order's Idempotency-Key): unique, so one order
   * is one card and one fee, however often it is sent. Null for a card sent free of charge.
   */
  feeTransferId: uuid('fee_transfer_id').unique('cards_fee_transfer_id_unique').references(() => transfers.id),
  /** When the processor last confirmed a PIN set through its hosted page (POST /commit-pin-change). */
  pinChangedAt: timestamp('pin_changed_at', { withTimezone: true }),
  atmPinChangedAt: timestamp('atm_pin_changed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('cards_account_idx').on(t.accountId),
  uniqueIndex('cards_one_pending_physical').on(t.accountId).where(sql`${t.isPending}`),
  uniqueIndex('cards_replaces_card_id_unique').on(t.replacesCardId),
  check(
    'cards_pending_is_physical_on_its_way',
    sql`not ${t.isPending} or (${t.type} = 'PHYSICAL' and ${t.status} = 'SHIPPED' and not ${t.isActive} and ${t.deliveryEarliest} is not null and ${t.deliveryLatest} is not null)`,
  ),
  check('cards_blocked_not_active', sql`${t.status} not in ('LOST', 'STOLEN') or not ${t.isActive}`),
  check('cards_stopped_not_active', sql`${t.stoppedAt} is null or not ${t.isActive}`),
  check('cards_replaces_another', sql`${t.replacesCardId} <> ${t.id}`),
  // Activation and the card network read a month from it: anything else would leave the card unusable.
  check('cards_expiry_month_year', sql`${t.expiry} ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'`),
]);

/**
 * The card a sandbox card transaction named (POST /sandbox/events `card.authorization`,
 * `atm.withdrawal`), by its transfer: null when it named none (any of the account's cards). A retry
 * with the transfer's Idempotency-Key must name the same card, as it must send the same amount.
 */
export const sandboxCardTransactions = pgTable('sandbox_card_transactions', {
  transferId: uuid('transfer_id').primaryKey().references(() => transfers.id),
  cardId: uuid('card_id').references(() => cards.id),
});

/**
 * The sandbox card processor's single-use tokens (server/partners/processor.ts): one per page it
 * hands out (the hosted PIN form, the virtual card's details), stored as a SHA-256 hash, short-lived.
 * A newer PIN token for the same card and PIN supersedes an older one (the older page answers -11).
 */
export const processorTokens = pgTable('processor_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  purpose: text('purpose', { enum: ['pin-change', 'card-details'] }).notNull(),
  cardId: uuid('card_id').notNull(),
  /** For a PIN token: the card's PIN or the ATM PIN. */
  pinKind: text('pin_kind', { enum: ['card', 'atm'] }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  supersededAt: timestamp('superseded_at', { withTimezone: true }),
  /** The PIN was set with it; the card API then commits the change once (committedAt). */
  completedAt: timestamp('completed_at', { withTimezone: true }),
  committedAt: timestamp('committed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('processor_tokens_card_idx').on(t.cardId, t.purpose)]);

/** The PINs the sandbox processor holds, as scrypt hashes (server/secrets.ts): never in the card API's tables. */
export const processorPins = pgTable('processor_pins', {
  cardId: uuid('card_id').notNull(),
  pinKind: text('pin_kind', { enum: ['card', 'atm'] }).notNull(),
  pinHash: text('pin_hash').notNull(),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.cardId, t.pinKind] })]);
