/**
 * The embedded PGlite in a worker thread (started by pgliteClient.ts). Requests run in the order they
 * arrive; PGlite queues them itself. Drizzle's parsers are set once on the instance: dates,
 * timestamps and intervals come back as Postgres writes them, as Drizzle expects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { DumpBlob } from './dumpBlob.ts';
import { pgliteStartOptions } from './pgliteStart.ts';
import { errorFields, type DatabaseReply, type DatabaseRequest } from './pgliteMessages.ts';

const asWritten = (value: string) => value;
/** Drizzle's per-query PGlite parsers (drizzle-orm/pglite/session.js). */
const drizzleParsers = {
  [types.TIMESTAMP]: asWritten,
  [types.TIMESTAMPTZ]: asWritten,
  [types.INTERVAL]: asWritten,
  [types.DATE]: asWritten,
  1231: asWritten, // numeric[]
  1115: asWritten, // timestamp[]
  1185: asWritten, // timestamptz[]
  1187: asWritten, // interval[]
  1182: asWritten, // date[]
};

const port = parentPort!;
const reply = (message: DatabaseReply) => port.postMessage(message);

try {
  const { dataDir, snapshot, sharedBuffers } = workerData as { dataDir?: string; snapshot?: Uint8Array<ArrayBuffer>; sharedBuffers?: string };
  // Options form: `new PGlite(undefined, options)` ignores the options.
  const client = new PGlite({ dataDir, ...(snapshot && { loadDataDir: new DumpBlob(snapshot) }), ...pgliteStartOptions(sharedBuffers) });
  await client.waitReady;
  // After start-up: PGlite sets its array parsers (date[], timestamp[]…) while starting.
  Object.assign(client.parsers, drizzleParsers);

  port.on('message', (request: DatabaseRequest) => {
    const run =
      request.op === 'query'
        ? client.query(request.text, request.params, { rowMode: request.rowMode })
        : request.op === 'exec'
          ? client.exec(request.text)
          : request.op === 'read'
            ? // One simple query is one transaction: SET TRANSACTION makes it read-only, then its result is dropped.
              client.exec(`SET TRANSACTION READ ONLY; ${request.text}`).then((results) => results.slice(1))
            : client.close();
    run.then(
      (result) => reply({ id: request.id, ok: true, result: result ?? null }),
      (error: unknown) => reply({ id: request.id, ok: false, error: errorFields(error) }),
    );
  });
  reply({ ready: true });
} catch (error) {
  reply({ failed: errorFields(error) });
}
