/**
 * The email gateway behind the owner's notices (server/notices.ts). A real
 * integration implements `EmailGateway`; the sandbox one keeps every email in an outbox table that
 * testers read at GET /sandbox/email-outbox. Nothing here logs an address or a text.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { sandboxEmailOutbox } from '../db/schema/index.ts';

export type EmailGateway = {
  /** `sent: false` when the gateway could not send it. */
  send(message: { to: string; subject: string; text: string }): Promise<{ sent: boolean }>;
};

export function createSandboxEmailGateway(db: Database): EmailGateway {
  return {
    async send({ to, subject, text }) {
      await db.insert(sandboxEmailOutbox).values({ email: to.toLowerCase(), subject, text });
      return { sent: true };
    },
  };
}

/** Outside sandbox mode until a real gateway is configured: nothing is sent. */
export const unconfiguredEmailGateway: EmailGateway = {
  async send() {
    return { sent: false };
  },
};

/** The sandbox email outbox, newest first, for one address (any case) or all. */
export async function readSandboxEmailOutbox(db: Database, email: string | undefined, limit: number) {
  const rows = await db
    .select({ email: sandboxEmailOutbox.email, subject: sandboxEmailOutbox.subject, text: sandboxEmailOutbox.text, sentAt: sandboxEmailOutbox.sentAt })
    .from(sandboxEmailOutbox)
    .where(email === undefined ? undefined : eq(sandboxEmailOutbox.email, sql`lower(${email})`))
    .orderBy(desc(sandboxEmailOutbox.sentAt), desc(sandboxEmailOutbox.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt.toISOString() }));
}
