/** What every start does once the database is migrated: server/main.ts, and the tests' restarts (tests/server/helpers.ts). */
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { sealClearDatesOfBirth } from './datesOfBirth.ts';
import { seedDemoData } from './seed.ts';

/**
 * Seals the dates of birth stored in clear, then (in the sandbox) seeds the demo cardholders. It runs
 * where the migrations do (`openDatabase`'s prepare): on PostgreSQL, one starting server at a time.
 */
export function preparedAtStart(config: Pick<ServerConfig, 'sandbox' | 'ssnEncryptionKey' | 'ssnHashKey'>) {
  return async (db: Database): Promise<void> => {
    await sealClearDatesOfBirth(db, config.ssnEncryptionKey);
    if (config.sandbox) await seedDemoData(db, config);
  };
}
