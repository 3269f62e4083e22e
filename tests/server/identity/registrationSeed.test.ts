/** The demo cardholder's registration details: her SSN (encrypted, keyed hash), date of birth (sealed) and agreements, also on databases seeded before registration existed. */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKeyOf, agreementAcceptances, users } from '../../../server/db/schema/index.ts';
import { seedDemoData } from '../../../server/seed.ts';
import { unsealDob } from '../../../server/datesOfBirth.ts';
import { decryptSsn, ssnHash } from '../../../server/ssn.ts';
import { demoCardholder, demoUser, startTestApp, type TestApp } from '../helpers.ts';
import { emptyPGlite } from '../../support/pgliteSnapshot.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ freshDatabase: true });
});
afterAll(async () => {
  await t?.close();
});

describe('the demo cardholder', () => {
  it('has the documented SSN, encrypted with her id and hashed with the key', async () => {
    const user = await demoUser(t.db);
    expect(demoCardholder.ssn).toBe('123-45-6789');
    expect(user.ssnEncrypted).not.toContain('6789');
    expect(decryptSsn(user.ssnEncrypted!, t.config.ssnEncryptionKey, user.id)).toBe('123456789');
    expect(user.ssnHash).toBe(ssnHash('123456789', t.config.ssnHashKey));
    expect(unsealDob(user.dob!, t.config.ssnEncryptionKey, user.id)).toBe(demoCardholder.dob);
    expect(user).toMatchObject({ ebtAccountId: demoCardholder.ebtAccountId, phone: '5592014477' });
    expect(user.addressKey).toBe('1420 n blackstone ave apt 12|93703');
  });

  it('gets her SSN, date of birth, EBT account id and agreements on a database seeded before registration', async () => {
    const user = await demoUser(t.db);
    await t.db.update(users).set({ ssnEncrypted: null, ssnHash: null, dob: null, ebtAccountId: null }).where(eq(users.id, user.id));
    await t.db.delete(agreementAcceptances).where(eq(agreementAcceptances.userId, user.id));

    await seedDemoData(t.db, t.config);

    const after = await demoUser(t.db);
    expect(decryptSsn(after.ssnEncrypted!, t.config.ssnEncryptionKey, user.id)).toBe('123456789');
    expect(unsealDob(after.dob!, t.config.ssnEncryptionKey, user.id)).toBe(demoCardholder.dob);
    expect(after).toMatchObject({ ssnHash: user.ssnHash, ebtAccountId: demoCardholder.ebtAccountId });
    expect(await t.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, user.id))).toHaveLength(3);
  });

  it('changes nothing when seeded again', async () => {
    const before = await demoUser(t.db);
    await seedDemoData(t.db, t.config);
    expect(await demoUser(t.db)).toEqual(before);
    expect(await t.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, before.id))).toHaveLength(3);
  });
});

describe('migration 0002 on a database from before registration', () => {
  it('turns phones into digits and gives every user the address key the card API computes', async () => {
    const migrations = path.join(import.meta.dirname, '../../../server/db/migrations');
    const before = await mkdtemp(path.join(os.tmpdir(), 'cards-migrations-'));
    const client = await emptyPGlite();
    try {
      // The migrations folder as it was before 0002.
      await cp(migrations, before, { recursive: true });
      const journalPath = path.join(before, 'meta/_journal.json');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((entry) => entry.tag < '0002');
      await writeFile(journalPath, JSON.stringify(journal));
      const db = drizzle({ client });
      await migrate(db, { migrationsFolder: before });
      const address = { street1: '77 W. Olive Ave.', street2: 'Apt #3', zip: '93728-1234' };
      await db.execute(sql`insert into users (email, first_name, last_name, phone, street1, street2, city, state, zip, password_hash)
        values ('old@example.com', 'Old', 'Timer', '(559) 444-1212', ${address.street1}, ${address.street2}, 'Fresno', 'CA', ${address.zip}, 'x')`);

      await migrate(db, { migrationsFolder: migrations });

      const result = (await db.execute(sql`select phone, address_key from users`)) as unknown as { rows: { phone: string; address_key: string }[] };
      expect(result.rows).toEqual([{ phone: '5594441212', address_key: addressKeyOf(address) }]);
      expect(addressKeyOf(address)).toBe('77 w olive ave apt 3|93728');
    } finally {
      await client.close();
      await rm(before, { recursive: true, force: true });
    }
  });
});
