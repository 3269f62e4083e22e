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
import { preparedAtStart } from '../../server/startUp.ts';
import { type ActivityHistory, loadActivityHistory } from './activity.ts';

/** A response as it left the server: its path and the bytes written to the socket for it (headers and body, as sent). */
export type SentResponse = { path: string; bytes: number };

export type RunningServer = {
  port: number;
  activity?: ActivityHistory;
  /** Every response so far, in order, when started with `recordSent`. */
  sent?: SentResponse[];
  close: () => Promise<void>;
};

const host = '127.0.0.1';

export async function startAppServer(
  webRoot: string | undefined = 'dist',
  databaseUrl?: string,
  options: { activityTransfers?: number; recordSent?: boolean } = {},
): Promise<RunningServer> {
  const config = readConfig({ ...process.env, PORT: '0', HOST: host, WEB_ROOT: webRoot ?? '' });
  // As `npm start` runs it: PGlite in a folder (a throwaway one here), unless a URL is given.
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(os.tmpdir(), 'bench-pglite-'));
  const database = await openDatabase({ databaseUrl, dataDir, prepare: preparedAtStart(config) });
  const activity = options.activityTransfers ? await loadActivityHistory(database.db, options.activityTransfers) : undefined;
  await database.gatherStatistics(); // as server/main.ts does
  const app = await buildApp(config, database.db, { logger: false });
  const sent = options.recordSent ? recordSent(app) : undefined;
  await app.listen({ port: 0, host });
  return {
    port: portOf(app.server.address()),
    ...(activity && { activity }),
    ...(sent && { sent }),
    close: async () => {
      await app.close();
      await database.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Records what each response wrote to its socket: the socket's count when the request came, taken
 * from its count when the response was done. A browser sends one request at a time on a connection
 * (HTTP/1.1, no pipelining), so the difference is that response alone, compressed as it was sent.
 * The server sees every request, the service worker's and navigation preload's too, which the page's
 * own network events do not show.
 */
function recordSent(app: Awaited<ReturnType<typeof buildApp>>): SentResponse[] {
  const sent: SentResponse[] = [];
  const before = new WeakMap<object, number>();
  app.addHook('onRequest', async (request) => {
    before.set(request.raw, request.raw.socket.bytesWritten);
  });
  app.addHook('onResponse', async (request) => {
    sent.push({ path: request.url.split('?')[0] ?? request.url, bytes: request.raw.socket.bytesWritten - (before.get(request.raw) ?? 0) });
  });
  return sent;
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
