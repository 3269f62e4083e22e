/**
 * The embedded database (PGlite) in its own thread, as a client Drizzle can use.
 *
 * PGlite is Postgres compiled to WebAssembly: a query runs on the thread that holds it. On the thread
 * that also serves HTTP, the home query's ~0.65 ms left that thread nearly saturated at 1,000 req/s
 * (p99 over the budget). In a worker thread (pgliteThread.ts) the database works beside the HTTP
 * work, on the other core.
 *
 * Drizzle uses query, exec and transaction. There is one database session, so while a transaction
 * runs, every other query waits for it to end (sent meanwhile, it would run inside the transaction).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseErrorFields, DatabaseReply, DatabaseRequest } from './pgliteMessages.ts';

/**
 * The thread registers tsx itself, then loads pgliteThread.ts: on Node 20 a worker does not take over
 * the `--import tsx` the process started with. A path, not `new URL(…, import.meta.url)`, which Vite
 * (and so Vitest) would rewrite as an asset URL.
 */
const threadFile = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'pgliteThread.ts')).href;
const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
const threadStart = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(threadFile)}); });`;

type QueryOptions = { rowMode?: 'array' | 'object' };
type Send = (request: DistributiveOmit<DatabaseRequest, 'id'>) => Promise<unknown>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** A database error as the caller would have seen it in-thread: message, code, constraint… */
function databaseError(fields: DatabaseErrorFields): Error {
  return Object.assign(new Error(fields.message), fields);
}

/**
 * What this client adds to PGlite's interface (runPrepared's reads, server/db/prepared.ts): `read` runs
 * a statement that changes nothing, read-only (the database refuses any write in it); `changes` counts
 * the requests sent that can change the database, every one but a read. The thread runs requests in the
 * order they were sent, so while the count stays the same, nothing but reads has reached the database.
 */
export type ReadsAndChanges = {
  read: (text: string) => Promise<{ rows: unknown[] }[]>;
  changes: () => number;
};

type Thread = { send: Send; changes: () => number; stop: () => Promise<void> };

function startThread(dataDir: string | undefined, snapshot: Uint8Array | undefined, sharedBuffers: string | undefined): Promise<Thread> {
  const worker = new Worker(threadStart, { eval: true, workerData: { dataDir, snapshot, sharedBuffers } });
  const calls = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let changes = 0;
  let stopped: Error | null = null;
  let stopping = false;

  const failAll = (error: Error) => {
    stopped = error;
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };
  const send: Send = (request) =>
    new Promise((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = nextId++;
      // The thread keeps the process alive only while it has work, like a socket with a query on it.
      if (calls.size === 0) worker.ref();
      calls.set(id, { resolve, reject });
      if (request.op !== 'read') changes += 1;
      worker.postMessage({ ...request, id } as DatabaseRequest);
    });

  return new Promise((ready, failed) => {
    worker.on('message', (message: DatabaseReply) => {
      if ('ready' in message) {
        worker.unref();
        const stop = async () => {
          stopping = true;
          await send({ op: 'close' }).catch(() => undefined);
          await worker.terminate();
        };
        return ready({ send, changes: () => changes, stop });
      }
      if ('failed' in message) return failed(databaseError(message.failed));
      const call = calls.get(message.id);
      calls.delete(message.id);
      if (calls.size === 0) worker.unref();
      if (message.ok) call?.resolve(message.result);
      else call?.reject(databaseError(message.error));
    });
    worker.on('error', (error) => {
      failAll(error);
      failed(error);
    });
    worker.on('exit', (code) => {
      const error = new Error(`The embedded database stopped (thread exit ${code}).`);
      // Not on the way down: say so, as every database call fails from now on.
      if (!stopping) console.error(`${error.message} Every call that needs the database fails until the server restarts.`);
      failAll(error);
      failed(error);
    });
  });
}

/**
 * PGlite in a worker thread, with the part of PGlite's interface Drizzle calls. `snapshot`, a data
 * folder dump, is loaded at start-up instead of creating an empty cluster.
 */
export async function openPGlite(dataDir: string | undefined, snapshot?: Uint8Array, sharedBuffers?: string): Promise<PGlite> {
  const { send, changes, stop } = await startThread(dataDir, snapshot, sharedBuffers);
  const query = (text: string, params: unknown[] = [], options?: QueryOptions) =>
    send({ op: 'query', text, params, rowMode: options?.rowMode ?? 'object' });
  const exec = (text: string) => send({ op: 'exec', text });

  /** Ends when the running transaction ends; null when none runs. */
  let transactionEnd: Promise<void> | null = null;
  /** Starts `work` once no transaction runs, in the same tick as the check. */
  async function outsideTransactions<T>(work: () => Promise<T>): Promise<T> {
    while (transactionEnd) await transactionEnd;
    return work();
  }

  async function transaction<T>(run: (tx: { query: typeof query; exec: typeof exec }) => Promise<T>): Promise<T> {
    while (transactionEnd) await transactionEnd;
    let end = () => {};
    transactionEnd = new Promise<void>((resolve) => (end = resolve));
    try {
      await exec('BEGIN');
      const result = await run({ query, exec });
      const [committed] = (await exec('COMMIT')) as { command?: string }[];
      // A statement failed inside and the caller went on: Postgres ends such a transaction with ROLLBACK.
      if (committed?.command === 'ROLLBACK') throw new Error('The transaction was rolled back.');
      return result;
    } catch (error) {
      await exec('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      transactionEnd = null;
      end();
    }
  }

  const client = {
    query: (text: string, params?: unknown[], options?: QueryOptions) => outsideTransactions(() => query(text, params, options)),
    exec: (text: string) => outsideTransactions(() => exec(text)),
    read: (text: string) => outsideTransactions(() => send({ op: 'read', text }) as Promise<{ rows: unknown[] }[]>),
    changes,
    transaction,
    close: () => outsideTransactions(stop),
  };
  // Drizzle's PGlite driver types its client as PGlite; it calls only query, exec and transaction.
  return client satisfies ReadsAndChanges as unknown as PGlite;
}
