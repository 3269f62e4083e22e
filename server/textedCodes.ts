/**
 * Texted one-time codes, shared by phone verification (registration), sign-in with a code (MFA) and
 * password reset: 6 digits from the CSPRNG, stored as a keyed hash, 10-minute expiry, single use, only
 * the newest code of a phone and purpose counts. Limits live in the database (phone_verification_limits),
 * per phone and purpose: at most 5 codes per 10 minutes; 5 wrong codes lock that purpose for 10 minutes;
 * a registration code's 100 wrong in a row, however far apart, lock it for a wait that doubles
 * (textedCodesInARowPolicy). Sign-in and reset codes have that ceiling per account and per email instead
 * (signInPerAccountPolicy, resetCodePerAccountPolicy), which a new password or a right code ends.
 * Not shared: anyone may ask registration codes for any phone (and password reset codes for any email),
 * and wrong ones must not lock the phone's owner out of signing in.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { textedCodeLength } from '../contract/rules.ts';
import type { Database } from './db/database.ts';
import { phoneVerificationCodes, phoneVerificationLimits } from './db/schema/index.ts';
import type { SmsGateway } from './partners/sms.ts';
import { keyedHash, randomDigits, sameSecret } from './secrets.ts';
import { createAttemptLimits, textedCodesInARowPolicy, wholeSeconds } from './attemptLimits.ts';
import type { Locale } from '../contract/shared/locale.ts';
import { inReadersOrder } from './shared/readersLanguage.ts';

/** A texted code lives 10 minutes (spec §9 names the 10-minute wait; codes never outlive it). */
export const codeTtlMinutes = 10;
/** Wrong codes per phone before it is locked (spec §4: too many wrong texted codes → 10-minute wait). */
export const wrongCodeLimit = 5;
export const lockoutMinutes = 10;
/** Codes texted to one phone per 10-minute window; the next request waits for the window to end. */
export const codesPerWindow = 5;
export const codeWindowMinutes = 10;

export type CodePurpose = (typeof phoneVerificationCodes.$inferSelect)['purpose'];

/** A phone on file as the app shows it when a code was texted: `(XXX) XXX-1234`. */
export const maskedPhone = (phone: string) => `(XXX) XXX-${phone.slice(-4)}`;

const codeWords: Record<CodePurpose, { en: (code: string) => string; es: (code: string) => string }> = {
  register: {
    en: (code) => `Your Providers verification code is ${code}.`,
    es: (code) => `Su código de verificación de Providers es ${code}.`,
  },
  'sign-in': {
    en: (code) => `Your Providers sign-in code is ${code}.`,
    es: (code) => `Su código para iniciar sesión en Providers es ${code}.`,
  },
  'reset-password': {
    en: (code) => `Your Providers password reset code is ${code}.`,
    es: (code) => `Su código para restablecer la contraseña de Providers es ${code}.`,
  },
};

/**
 * The text around a code in both languages, the one the app was used in first (a phone's lock screen
 * shows the start; as server/notices.ts). The code comes in the first sentence, so a phone's
 * one-time-code autofill finds it.
 */
export function codeText(purpose: CodePurpose, code: string, locale: Locale): string {
  const words = codeWords[purpose];
  const lines = {
    en: `${words.en(code)} It expires in ${codeTtlMinutes} minutes. Never share it.`,
    es: `${words.es(code)} Vence en ${codeTtlMinutes} minutos. No lo comparta con nadie.`,
  };
  return inReadersOrder(lines, locale).join('\n');
}

export type IssueResult = { kind: 'sent' } | { kind: 'limit'; retryAfterSeconds: number } | { kind: 'landline' } | { kind: 'failed' };
export type CheckResult =
  | { kind: 'right' }
  | { kind: 'wrong'; attemptsLeft?: number }
  /** The newest code, typed right, but no longer live: spent by a first check whose answer was lost, voided, or expired. */
  | { kind: 'spent' }
  | { kind: 'locked'; retryAfterSeconds: number };

export function createTextedCodes(db: Database, hashKey: Buffer, sms: SmsGateway) {
  const limits = createAttemptLimits(db);
  /**
   * The subject of a phone's registration codes wrong in a row (attempt_limits); null for the other
   * purposes, whose ceilings are the account's and the email's.
   */
  const inARowSubject = (phone: string, purpose: CodePurpose) => (purpose === 'register' ? `${purpose} ${phone}` : null);
  /** Seconds until the phone may try `purpose` again after its codes' ceiling; 0 when it may. */
  const ceilingWait = (phone: string, purpose: CodePurpose) => {
    const subject = inARowSubject(phone, purpose);
    return subject === null ? Promise.resolve(0) : limits.waitSeconds(textedCodesInARowPolicy, subject);
  };
  // Registration codes keep their original hash purpose, so codes issued before sign-in codes existed still work.
  const codeHash = (purpose: CodePurpose, phone: string, code: string) =>
    keyedHash(hashKey, purpose === 'register' ? 'phone-code' : `${purpose}-code`, `${phone}:${code}`);

  /** The limits row of a phone and purpose, created on first use. */
  async function ensureLimits(phone: string, purpose: CodePurpose): Promise<void> {
    await db.insert(phoneVerificationLimits).values({ phone, purpose }).onConflictDoNothing();
  }

  const limitsRow = (phone: string, purpose: CodePurpose) =>
    sql`${phoneVerificationLimits.phone} = ${phone} and ${phoneVerificationLimits.purpose} = ${purpose}`;

  /** Seconds until a phone may try `purpose` again: the wrong-code lockout, or (with `window`) the full code window. */
  async function waitFor(phone: string, purpose: CodePurpose, window: boolean): Promise<number> {
    const [row] = await db
      .select({
        lockMs: sql<number>`greatest(0, extract(epoch from (${phoneVerificationLimits.lockedUntil} - now())) * 1000)`,
        windowMs: sql<number>`case when ${phoneVerificationLimits.codesSent} >= ${codesPerWindow}
          then greatest(0, extract(epoch from (${phoneVerificationLimits.windowStartedAt} + make_interval(mins => ${codeWindowMinutes}) - now())) * 1000)
          else 0 end`,
      })
      .from(phoneVerificationLimits)
      .where(limitsRow(phone, purpose));
    const lockMs = Number(row?.lockMs ?? 0);
    const windowMs = window ? Number(row?.windowMs ?? 0) : 0;
    const waitMs = Math.max(lockMs, windowMs);
    return waitMs > 0 ? wholeSeconds(waitMs) : 0;
  }

  /**
   * Takes one of the phone's codes in the current window, with a bounded update: parallel requests
   * cannot pass the limit, and a locked phone gets none. Answers the wait when there is none left.
   */
  async function takeCodeSlot(phone: string, purpose: CodePurpose, again = true): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
    await ensureLimits(phone, purpose);
    const windowOver = sql`(${phoneVerificationLimits.windowStartedAt} is null or ${phoneVerificationLimits.windowStartedAt} <= now() - make_interval(mins => ${codeWindowMinutes}))`;
    const taken = await db
      .update(phoneVerificationLimits)
      .set({
        codesSent: sql`case when ${windowOver} then 1 else ${phoneVerificationLimits.codesSent} + 1 end`,
        windowStartedAt: sql`case when ${windowOver} then now() else ${phoneVerificationLimits.windowStartedAt} end`,
      })
      .where(
        sql`${limitsRow(phone, purpose)}
          and (${phoneVerificationLimits.lockedUntil} is null or ${phoneVerificationLimits.lockedUntil} <= now())
          and (${windowOver} or ${phoneVerificationLimits.codesSent} < ${codesPerWindow})`,
      )
      .returning({ phone: phoneVerificationLimits.phone });
    if (taken.length > 0) return { ok: true };
    const wait = await waitFor(phone, purpose, true);
    // Nothing taken and no wait: the row was deleted as spent (deleteSpent) between its insert and the
    // update, or its lock ended just then. Either way a code may go: take once more.
    if (wait === 0 && again) return takeCodeSlot(phone, purpose, false);
    return { ok: false, retryAfterSeconds: Math.max(1, wait) };
  }

  /**
   * Counts a try before its code is compared, with a bounded update (never past the limit, never while
   * locked), so a burst of parallel guesses gets at most the limit compared, not every guess that
   * arrives before the first wrong one is counted. A right code gives its try back; the wrong one that
   * was the last locks the phone for this purpose for 10 minutes (lockWhenSpent). A lockout that has
   * run out starts the count again.
   */
  async function reserveTry(phone: string, purpose: CodePurpose, again = true): Promise<{ tries: number } | { locked: true }> {
    await ensureLimits(phone, purpose);
    const lockOver = sql`(${phoneVerificationLimits.lockedUntil} is not null and ${phoneVerificationLimits.lockedUntil} <= now())`;
    const [counted] = await db
      .update(phoneVerificationLimits)
      .set({ failures: sql`case when ${lockOver} then 1 else ${phoneVerificationLimits.failures} + 1 end`, lockedUntil: null })
      .where(
        sql`${limitsRow(phone, purpose)}
          and (${lockOver} or (${phoneVerificationLimits.lockedUntil} is null and ${phoneVerificationLimits.failures} < ${wrongCodeLimit}))`,
      )
      .returning({ failures: phoneVerificationLimits.failures });
    if (counted) return { tries: counted.failures };
    if ((await waitFor(phone, purpose, false)) > 0) return { locked: true };
    const [found] = await db.select({ failures: phoneVerificationLimits.failures }).from(phoneVerificationLimits).where(limitsRow(phone, purpose));
    // No row: deleted as spent (deleteSpent) between its insert and the update; count once more.
    if (!found && again) return reserveTry(phone, purpose, false);
    // Every try is taken and none has locked yet: the last are still being compared, or a request died
    // between its count and its comparison. The wait starts now, so a stranded count cannot refuse forever.
    await lockWhenSpent(phone, purpose);
    return { locked: true };
  }

  /** Once every try is counted, the phone waits 10 minutes for this purpose. */
  async function lockWhenSpent(phone: string, purpose: CodePurpose): Promise<void> {
    await db
      .update(phoneVerificationLimits)
      .set({ lockedUntil: sql`now() + make_interval(mins => ${lockoutMinutes})` })
      .where(
        sql`${limitsRow(phone, purpose)} and ${phoneVerificationLimits.failures} >= ${wrongCodeLimit} and ${phoneVerificationLimits.lockedUntil} is null`,
      );
  }

  /** A try counted by reserveTry that spent no code (a parallel right guess spent it first): it does not count. */
  async function giveBack(phone: string, purpose: CodePurpose): Promise<void> {
    await db
      .update(phoneVerificationLimits)
      .set({ failures: sql`${phoneVerificationLimits.failures} - 1` })
      .where(sql`${limitsRow(phone, purpose)} and ${phoneVerificationLimits.failures} > 0 and ${phoneVerificationLimits.lockedUntil} is null`);
  }

  /**
   * Texts a new code for `purpose` to a 10-digit phone (`locale`'s words first), within the phone's window for that purpose. A code the
   * gateway could not send is void at once.
   */
  async function issue(phone: string, purpose: CodePurpose, locale: Locale): Promise<IssueResult> {
    // No code while none could be checked: a text that costs money and a screen that says it was sent.
    const ceiling = await ceilingWait(phone, purpose);
    if (ceiling > 0) return { kind: 'limit', retryAfterSeconds: ceiling };
    const slot = await takeCodeSlot(phone, purpose);
    if (!slot.ok) return { kind: 'limit', retryAfterSeconds: slot.retryAfterSeconds };
    if ((await sms.lineType(phone)) === 'landline') return { kind: 'landline' };

    const code = randomDigits(textedCodeLength);
    const [row] = await db
      .insert(phoneVerificationCodes)
      .values({ phone, purpose, codeHash: codeHash(purpose, phone, code), expiresAt: sql`now() + make_interval(mins => ${codeTtlMinutes})` })
      .returning({ id: phoneVerificationCodes.id });
    const { sent } = await sms.send({ phone, text: codeText(purpose, code, locale) });
    if (!sent) {
      // Nobody received it: it must never work.
      await db.update(phoneVerificationCodes).set({ usedAt: sql`now()` }).where(eq(phoneVerificationCodes.id, row!.id));
      return { kind: 'failed' };
    }
    return { kind: 'sent' };
  }

  /**
   * No live code to check against. A parallel wrong guess may have just reached the limit, locked the
   * phone and voided the code after this request's lock check: then the answer is the lock and its
   * wait, as that guess's was, not "wrong code".
   */
  async function lockedOrWrong(phone: string, purpose: CodePurpose): Promise<CheckResult> {
    const locked = Math.max(await waitFor(phone, purpose, false), await ceilingWait(phone, purpose));
    return locked > 0 ? { kind: 'locked', retryAfterSeconds: locked } : { kind: 'wrong' };
  }

  /**
   * Checks a code against the newest code of the phone for `purpose` and spends it when right. A
   * locked phone has no code looked at, the right one included; no live code means nothing to guess
   * against, so nothing is counted (`spent` when the code typed was that code). Every other try is counted before the code is compared
   * (reserveTry); the wrong one that reaches the limit voids the code.
   */
  async function check(phone: string, purpose: CodePurpose, code: string): Promise<CheckResult> {
    const locked = Math.max(await waitFor(phone, purpose, false), await ceilingWait(phone, purpose));
    if (locked > 0) return { kind: 'locked', retryAfterSeconds: locked };

    const [newest] = await db
      .select({
        id: phoneVerificationCodes.id,
        codeHash: phoneVerificationCodes.codeHash,
        live: sql<boolean>`(${phoneVerificationCodes.usedAt} is null and ${phoneVerificationCodes.expiresAt} > now())`,
      })
      .from(phoneVerificationCodes)
      .where(and(eq(phoneVerificationCodes.phone, phone), eq(phoneVerificationCodes.purpose, purpose)))
      .orderBy(desc(phoneVerificationCodes.createdAt))
      .limit(1);
    if (!newest?.live) {
      const result = await lockedOrWrong(phone, purpose);
      // Not called wrong when it was right (the app sends a code again when the first answer was lost).
      return result.kind === 'wrong' && newest && sameSecret(codeHash(purpose, phone, code), newest.codeHash) ? { kind: 'spent' } : result;
    }

    const tried = await reserveTry(phone, purpose);
    if ('locked' in tried) return { kind: 'locked', retryAfterSeconds: Math.max(1, await waitFor(phone, purpose, false)) };
    const subject = inARowSubject(phone, purpose);
    const inARow = subject === null ? null : await limits.reserveTry(textedCodesInARowPolicy, subject);
    if (inARow && !inARow.reserved) {
      await giveBack(phone, purpose);
      return { kind: 'locked', retryAfterSeconds: inARow.retryAfterSeconds };
    }

    if (!sameSecret(codeHash(purpose, phone, code), newest.codeHash)) {
      await db
        .update(phoneVerificationCodes)
        .set({ attempts: sql`${phoneVerificationCodes.attempts} + 1` })
        .where(eq(phoneVerificationCodes.id, newest.id));
      const ceilingLock = subject === null ? 0 : await limits.lockWhenSpent(textedCodesInARowPolicy, subject);
      if (tried.tries >= wrongCodeLimit || ceilingLock > 0) {
        if (tried.tries >= wrongCodeLimit) await lockWhenSpent(phone, purpose);
        // The code is void: after the wait a new one is needed.
        await db.update(phoneVerificationCodes).set({ usedAt: sql`now()` }).where(eq(phoneVerificationCodes.id, newest.id));
        return { kind: 'locked', retryAfterSeconds: Math.max(1, ceilingLock, await waitFor(phone, purpose, false)) };
      }
      return { kind: 'wrong', attemptsLeft: Math.min(wrongCodeLimit - tried.tries, inARow?.attemptsLeft ?? wrongCodeLimit) };
    }

    // Spent once, and not while a parallel wrong guess has just locked the phone.
    const spent = await db
      .update(phoneVerificationCodes)
      .set({ usedAt: sql`now()` })
      .where(
        sql`${phoneVerificationCodes.id} = ${newest.id} and ${phoneVerificationCodes.usedAt} is null
          and ${phoneVerificationCodes.expiresAt} > now()
          and not exists (select 1 from ${phoneVerificationLimits} where ${limitsRow(phone, purpose)}
            and ${phoneVerificationLimits.lockedUntil} > now())`,
      )
      .returning({ id: phoneVerificationCodes.id });
    if (spent.length === 0) {
      await Promise.all([giveBack(phone, purpose), subject === null ? null : limits.giveBack(textedCodesInARowPolicy, subject)]);
      return lockedOrWrong(phone, purpose);
    }
    await db
      .update(phoneVerificationLimits)
      .set({ failures: 0, lockedUntil: null })
      .where(limitsRow(phone, purpose));
    if (subject !== null) await limits.reset(textedCodesInARowPolicy, subject);
    return { kind: 'right' };
  }

  /**
   * Deletes what no longer counts, so the tables do not grow with every phone ever asked a code for:
   * expired codes (every older code of the phone and purpose has expired too, so the newest live one
   * stays the newest) and limits rows that mean what no row means (no running lock or window, and no
   * wrong code counted since the last success, or only a lockout's, now over). Answers how many rows went.
   */
  async function deleteSpent(): Promise<number> {
    const codes = await db
      .delete(phoneVerificationCodes)
      .where(sql`${phoneVerificationCodes.expiresAt} <= now()`)
      .returning({ id: phoneVerificationCodes.id });
    const limits = await db
      .delete(phoneVerificationLimits)
      .where(
        sql`(${phoneVerificationLimits.windowStartedAt} is null or ${phoneVerificationLimits.windowStartedAt} <= now() - make_interval(mins => ${codeWindowMinutes}))
          and (${phoneVerificationLimits.lockedUntil} <= now() or (${phoneVerificationLimits.lockedUntil} is null and ${phoneVerificationLimits.failures} = 0))`,
      )
      .returning({ phone: phoneVerificationLimits.phone });
    return codes.length + limits.length;
  }

  return { issue, check, deleteSpent };
}

export type TextedCodes = ReturnType<typeof createTextedCodes>;
