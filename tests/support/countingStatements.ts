/**
 * A database whose prepared statements are counted by name as they are asked to run, for tests of
 * kept answers (server/db/keptAnswers.ts): PGlite runs them as EXECUTE (reads), PostgreSQL as named
 * queries. It shares its database's change count (PGlite's `changes`).
 */
import type { Database } from '../../server/db/database.ts';

/** The database, with the prepared statements it is asked to run counted by name (PGlite: EXECUTE; PostgreSQL: named queries). */
export function countingStatements(db: Database): { db: Database; runs: string[] } {
  const runs: string[] = [];
  type Client = {
    exec?: (text: string) => Promise<unknown>;
    read?: (text: string) => Promise<unknown>;
    changes?: () => number;
    query: (config: { name?: string }) => Promise<unknown>;
  };
  const client = (db as unknown as { $client: Client }).$client;
  const counted = client.read
    ? {
        exec: (text: string) => client.exec!(text),
        read: (text: string) => {
          const executed = /^EXECUTE (\w+)/.exec(text);
          if (executed) runs.push(executed[1]!);
          return client.read!(text);
        },
        changes: client.changes,
      }
    : {
        query: (config: { name?: string }) => {
          if (config.name) runs.push(config.name);
          return client.query(config);
        },
      };
  return { db: { $client: counted } as unknown as Database, runs };
}
