/**
 * Answers kept by the server and given again while they are still the answer: the rows they were read
 * from unchanged (a version the caller reads with them, and later alone, which costs the embedded
 * database a fraction of the answer), and the time asked for between when they were read and when
 * they stop being the answer by time alone (a hold in them times out). On the embedded PGlite, while
 * nothing but reads has reached the database since an answer was last known to be current
 * (changeMark, server/db/prepared.ts), it is given without reading even the version. GET /home and the
 * first page of GET /transactions keep theirs (docs/decisions.md says when each is given): a
 * cardholder's account is asked for far more often than it changes.
 */
import type { Database } from './database.ts';
import { changeMark } from './prepared.ts';

/**
 * An answer as read at `readAt`, with what says it is still the answer: its version, and until when
 * (ms since the epoch). `known`: the database's change mark when it was last known to be the answer,
 * and the session family whose revocation was checked then (null where the database has no marks).
 */
export type KeptAnswer<T> = {
  answer: T;
  version: string;
  readAt: number;
  validUntil: number;
  known: { mark: number; familyId: string } | null;
};

/** Whether the session was revoked, and the version of the rows the kept answer was read from. */
export type CurrentVersion = { revoked: boolean; version: string | null };

/** A request for an answer: when, by which session family, and the database's change mark taken before any of its reads. */
export type AnswerRequest = { now: Date; familyId: string; mark: number | null };

export type KeptAnswers<T> = {
  /**
   * The answer kept for `key` if it is still the answer for this request; 'revoked' when the session
   * was revoked; undefined when it must be read (then `keep` it). `readCurrent` reads the session's
   * revocation and the version, unless nothing but reads reached the database since the answer was
   * last known to be current for this session family.
   */
  again: (db: Database, key: string, request: AnswerRequest, readCurrent: () => Promise<CurrentVersion | undefined>) => Promise<T | 'revoked' | undefined>;
  /** Keeps the answer this request read (with the session's check), its version, and until when it is the answer by time alone. */
  keep: (db: Database, key: string, request: AnswerRequest, read: Pick<KeptAnswer<T>, 'answer' | 'version' | 'validUntil'>) => void;
};

/** What a request marks a kept answer with: `known` when the database has change marks. */
const knownAt = (request: AnswerRequest): KeptAnswer<unknown>['known'] =>
  request.mark === null ? null : { mark: request.mark, familyId: request.familyId };

/** The database's change mark and the time of a request, before any of its reads. */
export const answerRequest = (db: Database, familyId: string, now: Date): AnswerRequest => ({ now, familyId, mark: changeMark(db) });

/**
 * A store of kept answers per database (tests open many, where the same cardholder can have the same
 * row versions) and key: at most `limit` per database, the one kept longest ago dropped first.
 */
export function keptAnswers<T>(limit: number): KeptAnswers<T> {
  const byDatabase = new WeakMap<Database, Map<string, KeptAnswer<T>>>();
  const store = (db: Database, key: string, kept: KeptAnswer<T>) => {
    let answers = byDatabase.get(db);
    if (!answers) byDatabase.set(db, (answers = new Map()));
    answers.delete(key);
    answers.set(key, kept);
    if (answers.size > limit) answers.delete(answers.keys().next().value!);
  };
  return {
    async again(db, key, request, readCurrent) {
      const kept = byDatabase.get(db)?.get(key);
      const now = request.now.getTime();
      // Not for a time before it was read: a hold that had timed out by then is missing from it.
      if (!kept || now < kept.readAt || now >= kept.validUntil) return undefined;
      // Revoking a session writes, so the same mark also says this family is still not revoked.
      if (request.mark !== null && kept.known?.mark === request.mark && kept.known.familyId === request.familyId) return kept.answer;
      const current = await readCurrent();
      if (current?.revoked) return 'revoked';
      if (current?.version !== kept.version) return undefined;
      store(db, key, { ...kept, known: knownAt(request) });
      return kept.answer;
    },
    keep(db, key, request, read) {
      store(db, key, { ...read, readAt: request.now.getTime(), known: knownAt(request) });
    },
  };
}

/** The first of these times (ISO 8601, or null for none) as ms since the epoch; Infinity when there is none. */
export function firstTime(times: (string | null)[]): number {
  return Math.min(Infinity, ...times.filter((time): time is string => time !== null).map((time) => new Date(time).getTime()));
}
