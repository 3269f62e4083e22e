/**
 * Hashing of secrets at rest: scrypt for what a person chooses, SHA-256 for random tokens, a keyed
 * HMAC-SHA256 for short values that a plain hash would not hide (SSNs, 6-digit texted codes).
 */
import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's work factor: N=16384, r=8 (16 MiB and tens of milliseconds a hash). Under Vitest (which sets
 * VITEST) it is N=1024, the same code and checks at a sixteenth of the cost: the suite hashes about 630
 * passwords, codes and PINs, which at full cost took 13 s of its 287 s of CPU here. The cost is not
 * stored in the hash, so a hash made under one cannot be checked under the other. Everything else (npm
 * start, the browser tests' server, the bench) uses the full cost; tests/server/secrets.test.ts checks it.
 */
export const secretHashCost = Object.freeze(
  process.env.VITEST === 'true' ? { N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } : { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
);
const keyLength = 32;

function derive(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keyLength, secretHashCost, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Password or unlock code → `scrypt$<salt>$<key>` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A hash that costs the same as a real check, so unknown emails take as long as wrong passwords. */
export const decoySecretHash = await hashSecret(randomBytes(12).toString('hex'));

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * HMAC-SHA256 of `value` under `key`, separated by `purpose` so one key never gives the same hash for
 * two uses. Only the key holder can test guesses, so even a 10^6 code space stays closed offline.
 */
export function keyedHash(key: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', key).update(`${purpose}\0${value}`).digest('base64url');
}

/** Compares two hashes (or tokens) in constant time for their length. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `length` random decimal digits from the system's CSPRNG (texted codes, account numbers). */
export function randomDigits(length: number): string {
  let digits = '';
  for (let i = 0; i < length; i += 1) digits += String(randomInt(10));
  return digits;
}
