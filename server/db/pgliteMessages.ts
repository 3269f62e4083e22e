/** What the main thread and the embedded database's thread (pgliteThread.ts) say to each other. */
export type DatabaseRequest =
  | { id: number; op: 'query'; text: string; params: unknown[]; rowMode: 'array' | 'object' }
  | { id: number; op: 'exec'; text: string }
  /** A statement that changes nothing, run read-only: the database refuses it (25006) if it would write. */
  | { id: number; op: 'read'; text: string }
  | { id: number; op: 'close' };

/** A database error's message and Postgres fields (code, constraint…), which callers look at. */
export type DatabaseErrorFields = { message: string } & Record<string, unknown>;

export type DatabaseReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: DatabaseErrorFields }
  | { ready: true }
  | { failed: DatabaseErrorFields };

/** Postgres's own fields of an error (pg-protocol's DatabaseError), as plain data that crosses threads. */
export function errorFields(error: unknown): DatabaseErrorFields {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: DatabaseErrorFields = { message: error.message, name: error.name };
  for (const key of ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'dataType', 'severity', 'position', 'where', 'routine']) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return fields;
}
