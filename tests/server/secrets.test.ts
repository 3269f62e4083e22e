/**
 * Secrets at rest (server/secrets.ts): a password, unlock code or PIN checks only against its own hash,
 * each hash has its own salt, and outside Vitest scrypt runs at its full work factor (N=16384, r=8),
 * since under Vitest it runs at a cheaper one.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashSecret, secretHashCost, verifySecret } from '../../server/secrets.ts';

describe('hashing what a person chooses', () => {
  it('checks the secret it was made from, and nothing else', async () => {
    const stored = await hashSecret('Providers2026');
    expect(stored).toMatch(/^scrypt\$[\w-]{22}\$[\w-]{43}$/);
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
    }
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
