/**
 * The SMS gateway behind phone verification (spec §7 request-verification). A real integration
 * implements `SmsGateway` (carrier lookup + send); the sandbox one keeps every text in an outbox
 * table that testers read at GET /sandbox/outbox. Nothing here logs a text or a code.
 */
import { desc, eq } from 'drizzle-orm';
import { textedCodeLength } from '../../contract/rules.ts';
import type { Database } from '../db/database.ts';
import { sandboxSmsOutbox } from '../db/schema/index.ts';

export type LineType = 'mobile' | 'landline';

export type SmsGateway = {
  /** What kind of line a 10-digit phone is: codes go to mobiles only (spec §5: landline rejected). */
  lineType(phone: string): Promise<LineType>;
  /** Texts a 10-digit phone; `sent: false` when the gateway could not (MFA_ERROR, 203). */
  send(message: { phone: string; text: string }): Promise<{ sent: boolean }>;
};

/**
 * Sandbox inputs (docs/sandbox.md), each a line number named by the answer it gives: 0204 is a
 * landline (204), 0203 makes the send fail (203). (The landline was area code 555 until 555, a code
 * of no place, became an invalid phone: contract/identity/rules.ts checkPhone.)
 */
export const sandboxSmsRules = { landlineLineNumber: '0204', failingLineNumber: '0203' } as const;

export function createSandboxSmsGateway(db: Database): SmsGateway {
  return {
    async lineType(phone) {
      return phone.endsWith(sandboxSmsRules.landlineLineNumber) ? 'landline' : 'mobile';
    },
    async send({ phone, text }) {
      if (phone.endsWith(sandboxSmsRules.failingLineNumber)) return { sent: false };
      // The code is kept beside the text so tests and testers need not parse it.
      const code = new RegExp(`\\b(\\d{${textedCodeLength}})\\b`).exec(text)?.[1] ?? null;
      await db.insert(sandboxSmsOutbox).values({ phone, text, code });
      return { sent: true };
    },
  };
}

/** Outside sandbox mode until a real gateway is configured: nothing is sent, so no code is ever usable. */
export const unconfiguredSmsGateway: SmsGateway = {
  async lineType() {
    return 'mobile';
  },
  async send() {
    return { sent: false };
  },
};

/** The sandbox outbox, newest first, for one phone or all. */
export async function readSandboxOutbox(db: Database, phone: string | undefined, limit: number) {
  const rows = await db
    .select({ phone: sandboxSmsOutbox.phone, text: sandboxSmsOutbox.text, code: sandboxSmsOutbox.code, sentAt: sandboxSmsOutbox.sentAt })
    .from(sandboxSmsOutbox)
    .where(phone === undefined ? undefined : eq(sandboxSmsOutbox.phone, phone))
    .orderBy(desc(sandboxSmsOutbox.sentAt), desc(sandboxSmsOutbox.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt.toISOString() }));
}
