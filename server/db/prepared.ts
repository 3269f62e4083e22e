/**
 * Prepared statements for hot reads (runPrepared) and the ledger's writes (statementRows): planned
 * once per database session instead of on every call.
 *
 * On the embedded PGlite, planning a query like the activity page took longer than running it (about
 * 1 ms of the database thread's 1.8 ms), and that one thread serves every query. On PostgreSQL,
 * node-postgres prepares a named statement once per pooled connection (`{ name, text, values }`). The
 * PGlite client Drizzle talks to takes unnamed statements only, so there the statement is made with
 * SQL `PREPARE` (once per PGlite instance) and run with `EXECUTE`, whose arguments are SQL literals
 * (EXECUTE takes no bind parameters): `literal` quotes them, and the statement's parameter types
 * (uuid, timestamptz, bigint) refuse anything else.
 *
 * A session's prepared statements live as long as it does. If one is missing anyway (26000, e.g.
 * after `DEALLOCATE`), it is prepared again and the call retried once; if another copy of this module
 * prepared the same name first (42P05), that one is used (same name, same text).
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';
import type { ReadsAndChanges } from './pgliteClient.ts';

export type PreparedStatement = {
  /** Unique per text: the session's name for it. */
  name: string;
  /** The SQL, with `$1`…`$n` for the parameters. */
  text: string;
  /** The parameters' SQL types, in order (PREPARE's signature on PGlite). */
  types: readonly string[];
};

export type PreparedValue = string | number | bigint | null;

type PgClient = { query: (config: { name: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }> };
/** The embedded PGlite's client (pgliteClient.ts), as runPrepared and statementRows use it. */
type PGliteClient = { exec: (text: string) => Promise<{ rows: unknown[] }[]> } & Partial<ReadsAndChanges>;

/** What each PGlite session has prepared (or is preparing), by statement name. */
const preparedBySession = new WeakMap<object, Map<string, Promise<void>>>();

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A value as an SQL literal for EXECUTE: numbers as written, text quoted (standard_conforming_strings: only `'` is special). */
export function literal(value: PreparedValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`prepared statement: ${value} is not a number SQL can take`);
    return String(value);
  }
  if (value.includes('\0')) throw new Error('prepared statement: text with a NUL character');
  return `'${value.replaceAll("'", "''")}'`;
}

function isPGlite(client: unknown): client is PGliteClient {
  return typeof client === 'object' && client !== null && 'exec' in client && typeof (client as PGliteClient).exec === 'function';
}

/**
 * Runs a statement that changes nothing (PREPARE, or EXECUTE of a read) read-only where the client can
 * (the worker's, pgliteClient.ts): the database refuses any write, and the count of changes
 * (changeMark) stays as it was.
 */
const readOnly = (client: PGliteClient, text: string) => (client.read ? client.read(text) : client.exec(text));

async function prepareOnPGlite(client: PGliteClient, statement: PreparedStatement): Promise<void> {
  let prepared = preparedBySession.get(client);
  if (!prepared) preparedBySession.set(client, (prepared = new Map()));
  let ready = prepared.get(statement.name);
  if (!ready) {
    ready = readOnly(client, `PREPARE ${statement.name}(${statement.types.join(', ')}) AS ${statement.text}`)
      .then(
        () => undefined,
        (error: unknown) => {
          if (errorCode(error) === '42P05') return;
          prepared.delete(statement.name);
          throw error;
        },
      );
    prepared.set(statement.name, ready);
  }
  await ready;
}

/**
 * Runs a prepared statement that reads, with these values; its rows as the driver gives them. Reads
 * only: on PGlite it runs read-only (a write in it fails, 25006) and is not counted as a change.
 */
export async function runPrepared<Row>(db: Database, statement: PreparedStatement, values: readonly PreparedValue[]): Promise<Row[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(statement.name)) throw new Error(`prepared statement: bad name ${statement.name}`);
  if (values.length !== statement.types.length) throw new Error(`prepared statement ${statement.name}: ${values.length} values for ${statement.types.length} parameters`);
  // Drizzle's database keeps its driver client (node-postgres Pool, or the PGlite client) as $client.
  const client = (db as unknown as { $client: unknown }).$client;
  if (!isPGlite(client)) {
    const { rows } = await (client as PgClient).query({ name: statement.name, text: statement.text, values: values.map((v) => (typeof v === 'bigint' ? v.toString() : v)) });
    return rows as Row[];
  }
  const execute = `EXECUTE ${statement.name}(${values.map(literal).join(', ')})`;
  for (let attempt = 0; ; attempt += 1) {
    await prepareOnPGlite(client, statement);
    try {
      // The simple protocol: cheaper in PGlite than an extended-protocol query with no parameters.
      const [result] = await readOnly(client, execute);
      return (result?.rows ?? []) as Row[];
    } catch (error) {
      if (errorCode(error) !== '26000' || attempt > 0) throw error;
      preparedBySession.get(client)?.delete(statement.name);
    }
  }
}

/**
 * A mark of what the database holds, taken without asking it: on the embedded PGlite, the count of
 * requests sent to it that can change it (pgliteClient.ts). Where a later mark is the same, nothing but
 * runPrepared's reads has reached the database in between: an answer read after the first mark was
 * taken is still what it holds. Null on PostgreSQL, which other servers can change too.
 */
export function changeMark(db: Database): number | null {
  const client = (db as unknown as { $client: unknown }).$client;
  return isPGlite(client) && client.changes ? client.changes() : null;
}

const dialect = new PgDialect();
/** Statement names by text: a name is a hash of its text, so one text is one statement on every connection. */
const namesByText = new Map<string, string>();

/**
 * The rows of a statement built with Drizzle's `sql`, on `db` or inside one of its transactions. On
 * PostgreSQL it runs as a node-postgres named statement, named by a hash of its text: each pooled
 * connection parses and plans it once, not at every call. For the ledger's writes, whose statements
 * each transfer makes (docs/performance.md, "the ledger's statements prepared"). Their text must hold no
 * values, each one a placeholder (`${value}` in `sql`), or every call would prepare another statement.
 * On PGlite, as Drizzle runs it (PGlite's client takes unnamed statements only; see runPrepared).
 */
export async function statementRows(db: Database, query: SQL): Promise<Record<string, unknown>[]> {
  // A transaction keeps its connection in its session, the database its pool (node-postgres) or client
  // (PGlite's, in-process or the worker's, both with `exec`). pg itself loads only with PostgreSQL.
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (client === undefined || isPGlite(client)) return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = namesByText.get(text);
  if (name === undefined) namesByText.set(text, (name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`));
  const { rows } = await (client as PgClient).query({ name, text, values: params });
  return rows as Record<string, unknown>[];
}
