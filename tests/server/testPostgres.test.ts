/**
 * The run's PostgreSQL (tests/support/postgres.ts, `throwaway`): the app's own pool reaches it through
 * the Unix socket in its data folder, which costs each query's round trip less than TCP, and it listens
 * on no network address, so nothing else on the machine can reach it.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { testDatabase } from '../support/postgresDatabases.ts';
import { describeOnPostgres } from './helpers.ts';

describeOnPostgres("the run's PostgreSQL", {}, () => {
  it('is reached by the app through its Unix socket and listens on no network address', async () => {
    const copy = await testDatabase();
    const database = await openDatabase({ databaseUrl: copy.url });
    try {
      const { rows } = (await database.db.execute(
        sql`SELECT inet_server_addr() AS address, current_setting('listen_addresses') AS listening, current_setting('unix_socket_directories') AS sockets`,
      )) as unknown as { rows: { address: string | null; listening: string; sockets: string }[] };
      // inet_server_addr() is null for a connection over a Unix socket.
      expect(rows).toEqual([{ address: null, listening: '', sockets: expect.stringMatching(/cards-pg-[^/]+\/data$/) }]);
    } finally {
      await database.close();
      await copy.drop();
    }
  });
});
