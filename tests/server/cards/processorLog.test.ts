/**
 * The sandbox card processor logs a failed query without its parameters: a PIN whose store refuses it
 * logged the whole query error, the PIN's hash among its values (a 4-digit PIN is found from its hash
 * in 10,000 tries).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildProcessorServer } from '../../../server/partners/processor.ts';
import { capturedLog, startTestApp, type TestApp, withoutRunDetails } from '../helpers.ts';
import { activePhysicalCard, cardGet, newCardholder } from './helpers.ts';

const { lines: logLines, stream: logStream } = capturedLog();

let t: TestApp;
let processor: FastifyInstance;

beforeAll(async () => {
  t = await startTestApp({ env: { PROCESSOR_PORT: '8100' } });
  processor = await buildProcessorServer(t.config, t.db, { appOrigins: ['http://localhost:8080'], logStream });
});
afterAll(async () => {
  await processor?.close();
  await t?.close();
});

it('logs a PIN the store refused without the PIN or its hash', async () => {
  const holder = await newCardholder(t.app, t.db, 5000);
  const cardId = (await activePhysicalCard(t.app, holder.access)).id;
  const form = await cardGet(t.app, holder.access, `/pin-change-form-url?cardId=${cardId}&pin=card&locale=en`);
  const token = new URL(form.body.url!).searchParams.get('token')!;
  await t.db.execute(sql`alter table processor_pins add constraint no_pins_now check (false) not valid`);
  try {
    const page = await processor.inject({
      method: 'POST',
      url: '/pin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, locale: 'en', pin: '2580', pinConfirm: '2580' }).toString(),
    });

    expect(page.statusCode).toBe(500);
    const logs = withoutRunDetails(logLines);
    expect(logs).toContain('card processor error');
    expect(logs).not.toContain('scrypt$');
    expect(logs).not.toContain('2580');
  } finally {
    await t.db.execute(sql`alter table processor_pins drop constraint no_pins_now`);
  }
});
