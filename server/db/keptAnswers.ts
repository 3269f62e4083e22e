/**
 * Answers kept by the server and given again while they are still the answer: the rows they were read
 * from unchanged (a version the caller reads with them, and later alone, which costs the embedded
 * database a fraction of the answer), and the time asked for between when they were read and when
 * they stop being the answer by time alone (a hold in them times out). GET /home and the first page of
 * GET /transactions keep theirs (docs/decisions.md says when each is given): a cardholder's account is
 * asked for far more often than it changes.
 */
import type { Database } from './database.ts';

/** An answer as read at `readAt`, with what says it is still the answer: its version, and until when (ms since the epoch). */
export type KeptAnswer<T> = { answer: T; version: string; readAt: number; validUntil: number };

export type KeptAnswers<T> = {
  /** The answer kept for `key` when `now` is within its time; whether its version is still current is the caller's to read. */
  candidate: (db: Database, key: string, now: Date) => KeptAnswer<T> | undefined;
  keep: (db: Database, key: string, kept: KeptAnswer<T>) => void;
};

/**
 * A store of kept answers per database (tests open many, where the same cardholder can have the same
 * row versions) and key: at most `limit` per database, the one kept longest ago dropped first.
 */
export function keptAnswers<T>(limit: number): KeptAnswers<T> {
  const byDatabase = new WeakMap<Database, Map<string, KeptAnswer<T>>>();
  return {
    candidate(db, key, now) {
      const kept = byDatabase.get(db)?.get(key);
      // Not for a time before it was read: a hold that had timed out by then is missing from it.
      return kept && kept.readAt <= now.getTime() && now.getTime() < kept.validUntil ? kept : undefined;
    },
    keep(db, key, kept) {
      let answers = byDatabase.get(db);
      if (!answers) byDatabase.set(db, (answers = new Map()));
      answers.delete(key);
      answers.set(key, kept);
      if (answers.size > limit) answers.delete(answers.keys().next().value!);
    },
  };
}

/** The first of these times (ISO 8601, or null for none) as ms since the epoch; Infinity when there is none. */
export function firstTime(times: (string | null)[]): number {
  return Math.min(Infinity, ...times.filter((time): time is string => time !== null).map((time) => new Date(time).getTime()));
}
