/**
 * Secrets at rest (server/secrets.ts): a password, unlock code or PIN checks only against its own hash,
 * each hash has its own salt and says the cost it was made at, and outside Vitest scrypt runs at its
 * full work factor (N=16384, r=8), since under Vitest it runs at a cheaper one.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { hashIsOutdated, hashSecret, secretHashCost, verifySecret } from '../../server/secrets.ts';
import { hashAtCost, unwrittenCostHash } from '../support/oldHashes.ts';

describe('hashing what a person chooses', () => {
  it('checks the secret it was made from, and nothing else', async () => {
    const stored = await hashSecret('Providers2026');
    // The cost in the PHC string format's words: ln is log2(N); under Vitest N=1024.
    expect(stored).toMatch(/^scrypt\$ln=10,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(hashIsOutdated(stored)).toBe(false);
    expect(await verifySecret('Providers2026', stored)).toBe(true);
    expect(await verifySecret('providers2026', stored)).toBe(false);
    expect(await verifySecret('', stored)).toBe(false);
  });

  it('salts each hash: the same secret twice gives two hashes', async () => {
    expect(await hashSecret('2580')).not.toBe(await hashSecret('2580'));
  });

  it('refuses a stored value that is not one of its hashes', async () => {
    for (const stored of ['', 'Providers2026', 'scrypt$', 'bcrypt$abc$def', 'scrypt$c2FsdA']) {
      expect(await verifySecret('Providers2026', stored)).toBe(false);
      expect(hashIsOutdated(stored)).toBe(false);
    }
  });

  it('checks a hash at the cost it was made at, and calls it outdated when that is not today\'s', async () => {
    // Hashes stored before the cost was written in were all made at N=16384.
    const unwritten = unwrittenCostHash('Providers2026');
    expect(await verifySecret('Providers2026', unwritten)).toBe(true);
    expect(await verifySecret('Providers2027', unwritten)).toBe(false);
    expect(hashIsOutdated(unwritten)).toBe(true);

    const cheaper = hashAtCost('2580', { ln: 11, r: 4, p: 2 });
    expect(await verifySecret('2580', cheaper)).toBe(true);
    expect(await verifySecret('2581', cheaper)).toBe(false);
    expect(hashIsOutdated(cheaper)).toBe(true);
  });

  it('refuses a hash whose written cost it would not use itself: too cheap, over its memory, or too parallel', async () => {
    // Each a true hash of the secret at that cost: only the cost can refuse it.
    for (const cost of [
      { ln: 9, r: 8, p: 1 },
      { ln: 16, r: 8, p: 1 },
      { ln: 10, r: 8, p: 17 },
    ]) {
      expect(await verifySecret('Providers2026', hashAtCost('Providers2026', cost)), JSON.stringify(cost)).toBe(false);
    }
    // The dearest it allows: 32 MiB of its 64.
    expect(await verifySecret('Providers2026', hashAtCost('Providers2026', { ln: 15, r: 8, p: 1 }))).toBe(true);
  });

  it('refuses a cost written in any other way', async () => {
    const [, , salt, key] = hashAtCost('Providers2026', { ln: 14, r: 8, p: 1 }).split('$');
    expect(await verifySecret('Providers2026', `scrypt$ln=14,r=8,p=1$${salt}$${key}`)).toBe(true);
    for (const cost of ['ln=14,r=8', 'N=16384,r=8,p=1', 'ln=14,r=8,p=1,x=1', 'r=8,ln=14,p=1', 'ln=14, r=8, p=1', '']) {
      expect(await verifySecret('Providers2026', `scrypt$${cost}$${salt}$${key}`), cost).toBe(false);
    }
    expect(await verifySecret('Providers2026', `scrypt$ln=14,r=8,p=1$${salt}$${key}$`)).toBe(false);
  });

  it("checks a hash made before a raise of the cost with today's work, so it answers no sooner than the decoy hash", async () => {
    // Counted, not timed: scrypt's time follows N·r·p on any machine.
    const derivations = async (stored: string, today: { N: number; r: number; p: number }) => {
      const scrypt = vi.spyOn(crypto, 'scrypt');
      syncBuiltinESMExports();
      try {
        expect(await verifySecret('Providers2026', stored, today)).toBe(true);
        expect(await verifySecret('wrong', stored, today)).toBe(false);
        return scrypt.mock.calls.map(([, , , options]) => (options as { N: number }).N);
      } finally {
        scrypt.mockRestore();
        syncBuiltinESMExports();
      }
    };
    const stored = await hashSecret('Providers2026');
    expect(await derivations(stored, { N: 1024, r: 8, p: 1 })).toEqual([1024, 1024]);
    // Raised to N=4096: four derivations at the hash's own N=1024, right or wrong secret alike.
    expect(await derivations(stored, { N: 4096, r: 8, p: 1 })).toEqual(Array(8).fill(1024));
    // Raised to r=12 (1.5 times the work): two.
    expect(await derivations(stored, { N: 1024, r: 12, p: 1 })).toEqual(Array(4).fill(1024));
    // A hash made at a higher cost than today's is checked once, at its own.
    expect(await derivations(hashAtCost('Providers2026', { ln: 12, r: 8, p: 1 }), { N: 1024, r: 8, p: 1 })).toEqual([4096, 4096]);
  });

  it('runs at the full work factor outside Vitest, and at the cheaper one under it', async () => {
    const env = { ...process.env };
    delete env.VITEST;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', "const { secretHashCost } = await import('./server/secrets.ts'); console.log(JSON.stringify(secretHashCost));"],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({ N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect(secretHashCost).toEqual({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  }, 60_000);
});
