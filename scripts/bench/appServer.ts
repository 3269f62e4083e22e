/**
 * Starts the real server for benchmarks: buildApp on a file-backed PGlite (or the PostgreSQL at
 * `databaseUrl`) seeded with the demo cardholder (and, for the activity bench, a bulk-loaded history
 * of `activityTransfers` transfers in her account: scripts/bench/activity.ts), listening on an
 * ephemeral port on 127.0.0.1. Also a bare Fastify 5 baseline.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { seedDemoData } from '../../server/seed.ts';
import { type ActivityHistory, loadActivityHistory } from './activity.ts';

export type RunningServer = { port: number; activity?: ActivityHistory; close: () => Promise<void> };

const host = '127.0.0.1';

export async function startAppServer(
  webRoot: string | undefined = 'dist',
  databaseUrl?: string,
  options: { activityTransfers?: number } = {},
): Promise<RunningServer> {
  const config = readConfig({ ...process.env, PORT: '0', HOST: host, WEB_ROOT: webRoot ?? '' });
  // As `npm start` runs it: PGlite in a folder (a throwaway one here), unless a URL is given.
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(os.tmpdir(), 'bench-pglite-'));
  const database = await openDatabase({ databaseUrl, dataDir });
  await seedDemoData(database.db);
  const activity = options.activityTransfers ? await loadActivityHistory(database.db, options.activityTransfers) : undefined;
  await database.gatherStatistics(); // as server/main.ts does
  const app = await buildApp(config, database.db, { logger: false });
  await app.listen({ port: 0, host });
  return {
    port: portOf(app.server.address()),
    ...(activity && { activity }),
    close: async () => {
      await app.close();
      await database.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startBareServer(): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ ok: true }));
  await app.listen({ port: 0, host });
  return { port: portOf(app.server.address()), close: () => app.close() };
}

function portOf(address: ReturnType<import('node:net').Server['address']>): number {
  if (address === null || typeof address === 'string') throw new Error(`unexpected listen address ${String(address)}`);
  return address.port;
}
