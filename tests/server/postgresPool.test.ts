/**
 * The PostgreSQL pool's lost connections (server/db/database.ts): reported while the database is open,
 * not once it was closed (its connections then end, and a server stopped right after ends them).
 */
import type { EventEmitter } from 'node:events';
import { afterEach, expect, it, vi } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { testDatabase } from '../support/postgresDatabases.ts';
import { describeOnPostgres } from './helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describeOnPostgres('the PostgreSQL pool', {}, () => {
  it('reports a lost connection while open, and says nothing of one after it was closed', async () => {
    const copy = await testDatabase();
    const database = await openDatabase({ databaseUrl: copy.url });
    const pool = (database.db as unknown as { $client: EventEmitter }).$client;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      pool.emit('error', new Error('terminating connection due to administrator command'));
      expect(warn).toHaveBeenCalledWith('PostgreSQL connection lost: terminating connection due to administrator command');
      warn.mockClear();
      await database.close();
      pool.emit('error', new Error('terminating connection due to administrator command'));
      expect(warn).not.toHaveBeenCalled();
    } finally {
      await copy.drop();
    }
  });
});
