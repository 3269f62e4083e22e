/**
 * Attempt counters in the database (table attempt_limits), so they hold across restarts and across
 * several server instances: wrong sign-ins per email and wrong SSNs per account, and account lookups
 * per client (countRequest). Every change is a bounded update: parallel requests cannot count past the
 * limit, and nothing is counted while locked. A lockout that has run out starts the count again, and
 * so does a count whose last wrong try is as old as its policy's wait (reserveTry), except for an
 * escalating policy's (an account's own ceilings), whose count goes on: those are failures in a row.
 */
import { isIP } from 'node:net';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Database } from './db/database.ts';
import { attemptLimits } from './db/schema/index.ts';

export type AttemptScope = (typeof attemptLimits.$inferSelect)['scope'];
/**
 * `escalates`: the count is of failures in a row, ended only by a success (or a new password), not by
 * the wait: past the limit each wait lets one try, and each wait is twice the last, up to
 * `longestEscalatedLockoutMinutes`. For an account's own ceilings, which a guesser spreading tries over
 * many addresses would otherwise reach again after every wait.
 */
export type AttemptPolicy = { scope: AttemptScope; limit: number; lockoutMinutes: number; escalates?: true };
export const longestEscalatedLockoutMinutes = 8 * 60;

/**
 * Wrong sign-ins are counted per client, so a stranger who knows an email slows only themselves, never
 * its owner: 5 in a row for one email from one IP → that IP waits 15 minutes for that email.
 */
export const signInPolicy: AttemptPolicy = { scope: 'sign-in', limit: 5, lockoutMinutes: 15 };
/**
 * The account's own ceiling, against guessing spread over many IPs: 100 wrong in a row from anywhere
 * (NIST SP 800-63B §5.2.2's most) → 15 minutes for every client; then one try per wait, the wait
 * doubling (30 minutes, an hour … 8 hours), until the right password (and its texted code) or a new one.
 */
export const signInPerAccountPolicy: AttemptPolicy = { scope: 'sign-in-account', limit: 100, lockoutMinutes: 15, escalates: true };
/**
 * Per client across all emails, against one password sprayed over many accounts: 30 wrong from one IP
 * (people behind one NAT share it), or 10 from one Device-UUID, → that client waits 15 minutes,
 * refused before any password is hashed.
 */
export const signInPerIpPolicy: AttemptPolicy = { scope: 'sign-in-client', limit: 30, lockoutMinutes: 15 };
export const signInPerDevicePolicy: AttemptPolicy = { scope: 'sign-in-client', limit: 10, lockoutMinutes: 15 };
/**
 * Wrong password-reset codes per email, counted for emails without an account too, so the answers
 * cannot tell them apart: 5 → 10 minutes (the texted code's own wait, spec §4).
 */
export const resetCodePolicy: AttemptPolicy = { scope: 'reset-code', limit: 5, lockoutMinutes: 10 };
/**
 * The same codes' ceiling per email, as sign-in's (NIST SP 800-63B §5.2.2): 100 wrong in a row → 15
 * minutes, then one try per wait, the wait doubling up to 8 hours, until a right code. The 10-minute
 * waits alone (the email's above, the phone's) started again after each, so a guesser who asked for
 * a new code every 10 minutes could try 720 a day, forever.
 */
export const resetCodePerAccountPolicy: AttemptPolicy = { scope: 'reset-code-account', limit: 100, lockoutMinutes: 15, escalates: true };
/**
 * Registration codes' ceiling per phone (server/textedCodes.ts), on top of the phone's 5 wrong codes per
 * 10 minutes: 100 wrong in a row → 15 minutes, then one try per wait, the wait doubling up to 8 hours,
 * until a right code (NIST SP 800-63B §5.2.2); no code is texted while it waits. Anyone may ask
 * registration codes for any phone: without it, one guesser could try 720 a day against a phone,
 * forever. Sign-in and reset codes have theirs per account and per email.
 */
export const textedCodesInARowPolicy: AttemptPolicy = { scope: 'texted-code-phone', limit: 100, lockoutMinutes: 15, escalates: true };
/**
 * 5 wrong SSNs in a row → SSN checks of that account wait 10 minutes (spec §4's 10-minute wait); then
 * one try per wait, the wait doubling up to 8 hours, until the right SSN: whoever holds the phone
 * cannot go on guessing 5 every 10 minutes.
 */
export const ssnPolicy: AttemptPolicy = { scope: 'ssn', limit: 5, lockoutMinutes: 10, escalates: true };

/** Scopes whose counts outlive their waits: deleteSpent keeps their rows. */
const escalatingScopes = [signInPerAccountPolicy.scope, resetCodePerAccountPolicy.scope, textedCodesInARowPolicy.scope, ssnPolicy.scope];
/** The wait answered while the last tries a count allows are being checked (reserveTry). */
export const triesBeingCheckedSeconds = 2;
/** No check takes this long: a count with a try counted since may have tries still being checked (reserveTry). */
const triesCheckedWithinSeconds = 60;
/**
 * Card activation (POST /verify/card-last-four, /activate-card) per cardholder: every try is counted
 * before the digits are compared (reserveTry; a right one is given back), so parallel guesses cannot
 * outrun the count; 5 wrong tries → 30 minutes before the next.
 */
export const cardActivationPolicy: AttemptPolicy = { scope: 'card-activation', limit: 5, lockoutMinutes: 30 };
/** The policies that do not escalate, every one (a test checks the module exports no other). */
export const startingAgainPolicies: readonly AttemptPolicy[] = [signInPolicy, signInPerIpPolicy, signInPerDevicePolicy, resetCodePolicy, cardActivationPolicy];
/** The longest wait of the policies that do not escalate: a count whose last try is older has started again (deleteSpent). */
const longestTryCountMinutes = Math.max(...startingAgainPolicies.map((policy) => policy.lockoutMinutes));

/**
 * A limit on requests, successful or not, per subject in a fixed window (countRequest): `limit`
 * requests from the subject's first one, then every request waits until `windowMinutes` have passed.
 */
export type RequestPolicy = { scope: RequestScope; limit: number; windowMinutes: number };
/** Scopes counted by countRequest (`attempt_limits.scope` is plain text: no migration needed). */
export type RequestScope = Extract<AttemptScope, 'lookup' | 'texts' | 'address-check' | 'analytics'>;
/** A call limited per client (server/shared/clientLimits.ts): per IP, always counted, and per Device-UUID when one is sent. */
export type ClientLimit = { perIp: RequestPolicy; perDevice: RequestPolicy };

/**
 * Account lookups (POST /verify/email, /phone-number-in-use answer whether an account has an email or
 * phone) per Device-UUID: 30 per 10 minutes. Registration makes one of each and reset-password one
 * email lookup, a few more after typos; 30 only stops someone trying email after email.
 */
export const lookupPerDevicePolicy: RequestPolicy = { scope: 'lookup', limit: 30, windowMinutes: 10 };
/**
 * The same lookups per client IP (IPv6 per /64), always counted: the Device-UUID is chosen by the
 * client, so a new one per request would escape the device limit. Higher than the device limit, as
 * people behind one address (an office, a carrier's NAT) share it: 100 per 10 minutes.
 */
export const lookupPerIpPolicy: RequestPolicy = { scope: 'lookup', limit: 100, windowMinutes: 10 };
export const lookupLimit: ClientLimit = { perIp: lookupPerIpPolicy, perDevice: lookupPerDevicePolicy };

/**
 * Registration codes texted (POST /request-verification) per client. Anyone may ask one for any phone,
 * and every text costs money: the per-phone limit alone let a client cycle through numbers without end
 * (SMS pumping). An applicant asks one and a few more when none arrives: 10 per device and 100 per IP
 * (shared by people behind one address) per 10 minutes.
 */
export const textsLimit: ClientLimit = {
  perIp: { scope: 'texts', limit: 100, windowMinutes: 10 },
  perDevice: { scope: 'texts', limit: 10, windowMinutes: 10 },
};

/**
 * Address checks (POST /verify-address, a call to the paid address partner) per client: an applicant
 * checks one address and a few corrections; 30 per device and 100 per IP per 10 minutes.
 */
export const addressCheckLimit: ClientLimit = {
  perIp: { scope: 'address-check', limit: 100, windowMinutes: 10 },
  perDevice: { scope: 'address-check', limit: 30, windowMinutes: 10 },
};

/**
 * Analytics batches (POST /analytics/events, which anyone may send and the card API stores) per client,
 * so nobody can fill the database with them. The app sends a batch at most every 2 seconds while events
 * come (src/app/analytics.ts): 600 per device per 10 minutes is more than any use, and 3,000 per IP, as
 * people behind one address share it. A batch past either is answered 429 and dropped, as the app drops
 * any batch that fails.
 */
export const analyticsLimit: ClientLimit = {
  perIp: { scope: 'analytics', limit: 3000, windowMinutes: 10 },
  perDevice: { scope: 'analytics', limit: 600, windowMinutes: 10 },
};

/** Wrong unlock codes before a lockout that only an unlock-code reset (with the SSN) ends; counted in users.unlock_failures. */
export const unlockAttemptLimit = 5;

/** The subject of a per-email counter: emails are unique whatever their case. */
export const emailSubject = (email: string) => email.trim().toLowerCase();

/**
 * The subject of a per-device counter: the `Device-UUID` header when well-formed (the web app sends a
 * UUID, a host app its own device id of up to 128 characters), else null (count by IP alone).
 */
export function deviceSubject(header: unknown): string | null {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(header) ? `device:${header}` : null;
}

/**
 * The subject of a per-IP counter: an IPv4 address (also when IPv4-mapped), or an IPv6 address's /64,
 * since one subscriber usually holds a whole /64 and could change addresses within it at will.
 */
export function ipSubject(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return `ip:${mapped[1]}`;
  const address = ip.split('%')[0] ?? '';
  if (isIP(address) !== 6) return `ip:${ip}`;
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) => (part ? part.split(':') : []);
  const groups =
    tail === undefined
      ? groupsOf(head)
      : [...groupsOf(head), ...Array<string>(8 - groupsOf(head).length - groupsOf(tail).length).fill('0'), ...groupsOf(tail)];
  return `ip:${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** Seconds as a whole number, at least 1, from milliseconds. */
export const wholeSeconds = (milliseconds: number) => Math.max(1, Math.ceil(milliseconds / 1000));

/** A try counted before its check (reserveTry): `tries` counted so far, this one included. */
export type ReservedTry = { reserved: true; tries: number; attemptsLeft: number } | { reserved: false; retryAfterSeconds: number };
export type CountedRequest = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function createAttemptLimits(db: Database) {
  const row = (policy: AttemptPolicy, subject: string) =>
    and(eq(attemptLimits.scope, policy.scope), eq(attemptLimits.subject, subject));

  /** Seconds until the subject may try again; 0 when it is not locked. */
  async function waitSeconds(policy: AttemptPolicy, subject: string): Promise<number> {
    const [found] = await db
      .select({ lockMs: sql<number>`greatest(0, extract(epoch from (${attemptLimits.lockedUntil} - now())) * 1000)` })
      .from(attemptLimits)
      .where(row(policy, subject));
    const lockMs = Number(found?.lockMs ?? 0);
    return lockMs > 0 ? wholeSeconds(lockMs) : 0;
  }

  /** A new password: the account's sign-in counters end, from every client (email and email+IP). */
  async function resetSignIns(email: string): Promise<void> {
    const subject = emailSubject(email);
    await db
      .update(attemptLimits)
      .set({ failures: 0, lockedUntil: null })
      .where(
        or(
          and(eq(attemptLimits.scope, signInPerAccountPolicy.scope), eq(attemptLimits.subject, subject)),
          and(eq(attemptLimits.scope, signInPolicy.scope), sql`starts_with(${attemptLimits.subject}, ${`${subject} `})`),
        ),
      );
  }

  /**
   * Counts a try before it is checked (bounded), for secrets short enough to guess in a burst of
   * parallel tries: at most `limit` tries are ever being checked or wrong until the count starts
   * again. Answers the tries counted, this one included, or the wait when none is left (locked, or
   * the last ones still being checked: a moment's wait, or for an escalating policy its whole wait). The
   * caller then gives a right try back (giveBack) or records a wrong one (lockWhenSpent: its time, and
   * the wait when it was the last).
   */
  async function reserveTry(policy: AttemptPolicy, subject: string, again = true): Promise<ReservedTry> {
    await db.insert(attemptLimits).values({ scope: policy.scope, subject }).onConflictDoNothing();
    const lockOver = sql`(${attemptLimits.lockedUntil} is not null and ${attemptLimits.lockedUntil} <= now())`;
    // Not escalating: a count whose last wrong try is a whole wait old starts again, as if it had locked
    // and the wait had run out (typos weeks apart, or other people's behind one carrier IP, with right
    // sign-ins between, are not a guesser's burst), unless a try was counted within the last minute:
    // tries still being checked keep the count, so a burst of parallel guesses cannot start it again.
    const startsAgain = policy.escalates
      ? lockOver
      : sql`(${lockOver} or (${attemptLimits.lockedUntil} is null
          and coalesce(${attemptLimits.lastFailureAt}, '-infinity') <= now() - make_interval(mins => ${policy.lockoutMinutes})
          and ${attemptLimits.lastTryAt} <= now() - make_interval(secs => ${triesCheckedWithinSeconds})))`;
    const counted = policy.escalates ? sql`${attemptLimits.failures} + 1` : sql`case when ${startsAgain} then 1 else ${attemptLimits.failures} + 1 end`;
    const [reserved] = await db
      .update(attemptLimits)
      .set({ failures: counted, lockedUntil: null, lastTryAt: sql`now()` })
      .where(sql`${row(policy, subject)} and (${startsAgain} or (${attemptLimits.lockedUntil} is null and ${attemptLimits.failures} < ${policy.limit}))`)
      .returning({ failures: attemptLimits.failures });
    if (reserved) return { reserved: true, tries: reserved.failures, attemptsLeft: Math.max(0, policy.limit - reserved.failures) };
    const wait = await waitSeconds(policy, subject);
    if (wait > 0) return { reserved: false, retryAfterSeconds: wait };
    const [found] = await db.select({ failures: attemptLimits.failures }).from(attemptLimits).where(row(policy, subject));
    // No row: deleted as spent (deleteSpent) between the insert and the update; count once more.
    if (!found && again) return reserveTry(policy, subject, false);
    // Every try is taken and none has locked yet: the last are still being checked (a burst of tries,
    // right ones among them maybe), or a request died between its count and its check. Not escalating,
    // the answer is a moment's wait: the checks lock if they were wrong and give their tries back if
    // right, and a stranded count starts again a minute after its last try (a wait after its last
    // wrong one). An escalating count's wait starts now, so a stranded count cannot refuse forever.
    if (!policy.escalates) return { reserved: false, retryAfterSeconds: triesBeingCheckedSeconds };
    const started = await lockWhenSpent(policy, subject);
    return { reserved: false, retryAfterSeconds: started > 0 ? started : policy.lockoutMinutes * 60 };
  }

  /** A try counted by reserveTry was right: it does not count (never below zero, nor once locked). */
  async function giveBack(policy: AttemptPolicy, subject: string): Promise<void> {
    await db
      .update(attemptLimits)
      .set({
        failures: sql`${attemptLimits.failures} - 1`,
        // An escalating count still past its limit: the wait that let this try is over again, so the next try is let through.
        lockedUntil: policy.escalates ? sql`case when ${attemptLimits.failures} - 1 >= ${policy.limit} then now() else null end` : null,
      })
      .where(sql`${row(policy, subject)} and ${attemptLimits.failures} > 0 and ${attemptLimits.lockedUntil} is null`);
  }

  /**
   * A try counted by reserveTry was wrong and tries are left: its time is kept, so the count starts
   * again a wait after it (a wrong try not recorded would let it start again a minute on).
   */
  async function recordWrong(policy: AttemptPolicy, subject: string): Promise<void> {
    await db.update(attemptLimits).set({ lastFailureAt: sql`now()` }).where(row(policy, subject));
  }

  /**
   * A try counted by reserveTry was wrong: its time is kept (recordWrong), and once the count is at the
   * limit the wait starts (an escalating policy's doubles with each failure past it). Answers the wait
   * (0 when tries are left). Sign-in calls it for every wrong try; the others call recordWrong while
   * tries are left, so each wrong try of a burst is told its own tries left.
   */
  async function lockWhenSpent(policy: AttemptPolicy, subject: string): Promise<number> {
    const minutes = policy.escalates
      ? sql`least(${longestEscalatedLockoutMinutes}, ${policy.lockoutMinutes} * power(2, least(32, ${attemptLimits.failures} - ${policy.limit})))`
      : sql`${policy.lockoutMinutes}`;
    await db
      .update(attemptLimits)
      .set({
        lastFailureAt: sql`now()`,
        lockedUntil: sql`case when ${attemptLimits.failures} >= ${policy.limit} then now() + make_interval(secs => 60 * ${minutes}) end`,
      })
      .where(sql`${row(policy, subject)} and ${attemptLimits.lockedUntil} is null`);
    return waitSeconds(policy, subject);
  }

  /** A success: the count starts again. */
  async function reset(policy: AttemptPolicy, subject: string): Promise<void> {
    await db.update(attemptLimits).set({ failures: 0, lockedUntil: null }).where(row(policy, subject));
  }

  /**
   * Counts one request in the subject's window (bounded), whatever its outcome: for calls where every
   * answer tells something (does an account have this email?), so counting only failures would not
   * limit them. The row's columns mean, for these scopes: `failures` the requests counted in the
   * window, `locked_until` the window's end (set by the window's first request). A refused request is
   * not counted; the first request after the window ends starts a new one.
   */
  async function countRequest(policy: RequestPolicy, subject: string, again = true): Promise<CountedRequest> {
    const scope = policy.scope;
    const requestRow = and(eq(attemptLimits.scope, scope), eq(attemptLimits.subject, subject));
    await db.insert(attemptLimits).values({ scope, subject }).onConflictDoNothing();
    const windowOver = sql`(${attemptLimits.lockedUntil} is null or ${attemptLimits.lockedUntil} <= now())`;
    const counted = await db
      .update(attemptLimits)
      .set({
        failures: sql`case when ${windowOver} then 1 else ${attemptLimits.failures} + 1 end`,
        lockedUntil: sql`case when ${windowOver} then now() + make_interval(mins => ${policy.windowMinutes}) else ${attemptLimits.lockedUntil} end`,
      })
      .where(sql`${requestRow} and (${windowOver} or ${attemptLimits.failures} < ${policy.limit})`)
      .returning({ failures: attemptLimits.failures });
    if (counted.length > 0) return { allowed: true };
    const [found] = await db
      .select({ windowMs: sql<number>`greatest(0, extract(epoch from (${attemptLimits.lockedUntil} - now())) * 1000)` })
      .from(attemptLimits)
      .where(requestRow);
    // No row: deleted as spent (deleteSpent) between the insert and the update; count once more.
    if (!found && again) return countRequest(policy, subject, false);
    return { allowed: false, retryAfterSeconds: wholeSeconds(Number(found?.windowMs ?? 0)) };
  }

  /**
   * Peeks at request counters without counting: the longest wait among those whose window is full
   * (`limit` requests counted and the window not over), 0 when the subject may make another request.
   * For a call that counts only some outcomes, to refuse a client already over a limit up front.
   */
  async function requestWait(counters: [RequestPolicy, string][]): Promise<number> {
    const full = counters.map(([policy, subject]) =>
      and(eq(attemptLimits.scope, policy.scope), eq(attemptLimits.subject, subject), sql`${attemptLimits.failures} >= ${policy.limit}`),
    );
    const [found] = await db
      .select({ windowMs: sql<number>`coalesce(max(greatest(0, extract(epoch from (${attemptLimits.lockedUntil} - now())) * 1000)), 0)` })
      .from(attemptLimits)
      .where(or(...full));
    const windowMs = Number(found?.windowMs ?? 0);
    return windowMs > 0 ? wholeSeconds(windowMs) : 0;
  }

  /**
   * Deletes the counters that no longer count, so the table does not grow with every email, device
   * and address ever seen: a lock or window that has ended (the next attempt starts the count again)
   * and a count reset to zero or whose last try is older than any wait that does not escalate. Such a
   * row means exactly what no row means. Recent counts without a lock stay, as do an escalating
   * policy's after its wait. Answers how many rows went.
   */
  async function deleteSpent(): Promise<number> {
    const notEscalating = sql`${attemptLimits.scope} not in ${escalatingScopes}`;
    const deleted = await db
      .delete(attemptLimits)
      .where(
        sql`(${attemptLimits.lockedUntil} <= now() and ${notEscalating}) or (${attemptLimits.failures} = 0 and ${attemptLimits.lockedUntil} is null)
          or (${notEscalating} and ${attemptLimits.lockedUntil} is null
            and greatest(${attemptLimits.lastTryAt}, ${attemptLimits.lastFailureAt}) <= now() - make_interval(mins => ${longestTryCountMinutes}))`,
      )
      .returning({ subject: attemptLimits.subject });
    return deleted.length;
  }

  return { waitSeconds, resetSignIns, reserveTry, giveBack, recordWrong, lockWhenSpent, reset, countRequest, requestWait, deleteSpent };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
