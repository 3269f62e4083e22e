/** Hashes as earlier code stored them, for tests of hashes made before a change of format or cost. */
import { randomBytes, scryptSync } from 'node:crypto';

/** `scrypt$<salt>$<key>`: the format before the cost was written in, always made at N=16384, r=8, p=1. */
export function unwrittenCostHash(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** `scrypt$ln=…,r=…,p=…$<salt>$<key>` at a cost of the test's choosing (up to 256 MiB). */
export function hashAtCost(secret: string, cost: { ln: number; r: number; p: number }): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: 256 * 1024 * 1024 });
  return `scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}
