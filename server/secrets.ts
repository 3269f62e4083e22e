/**
 * Hashing of secrets at rest: scrypt for what a person chooses, SHA-256 for random tokens, a keyed
 * HMAC-SHA256 for short values that a plain hash would not hide (SSNs, 6-digit texted codes).
 */
import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's work factor: N=16384, r=8 (16 MiB and tens of milliseconds a hash). Under Vitest (which sets
 * VITEST) it is N=1024, the same code and checks at a sixteenth of the cost: the suite hashes about 630
 * passwords, codes and PINs, which at full cost took 13 s of its 287 s of CPU here. Everything else (npm
 * start, the browser tests' server, the bench) uses the full cost; tests/server/secrets.test.ts checks it.
 */
export const secretHashCost = Object.freeze(
  process.env.VITEST === 'true' ? { N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } : { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 },
);
const keyLength = 32;

type ScryptCost = { N: number; r: number; p: number };

/** A hash stored before the cost was written into it: `scrypt$<salt>$<key>`, made at N=16384, r=8, p=1. */
const unwrittenCost: ScryptCost = { N: 16384, r: 8, p: 1 };

/** `ln=14,r=8,p=1`, as the PHC string format writes scrypt's cost (ln: log2 of N). */
function writeCost({ N, r, p }: ScryptCost): string {
  return `ln=${Math.log2(N)},r=${r},p=${p}`;
}

/** The cost a stored hash was made at, or null when it is not one this code could have made. */
function readCost(text: string): ScryptCost | null {
  const match = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(text);
  if (!match) return null;
  const [ln, r, p] = match.slice(1).map(Number) as [number, number, number];
  // Within what this server allows itself, so a stored value can never ask for more memory or time
  // (OpenSSL's memory for scrypt: 128·r·(N + 2) for its table and 128·r·p for its blocks).
  if (ln < 10 || r < 1 || p < 1 || p > 16 || 128 * r * (2 ** ln + 2 + p) > secretHashCost.maxmem) return null;
  return { N: 2 ** ln, r, p };
}

function derive(secret: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keyLength, { ...cost, maxmem: secretHashCost.maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The parts of a stored hash, its cost read from it (or the one of hashes stored before it was written). */
function parseHash(stored: string): { cost: ScryptCost; salt: string; key: string } | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3) return parts[1] && parts[2] ? { cost: unwrittenCost, salt: parts[1], key: parts[2] } : null;
  const cost = parts.length === 4 ? readCost(parts[1]!) : null;
  return cost && parts[2] && parts[3] ? { cost, salt: parts[2], key: parts[3] } : null;
}

/** Password, unlock code or PIN → `scrypt$ln=14,r=8,p=1$<salt>$<key>` (base64url), its cost written in it. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, secretHashCost);
  return `scrypt$${writeCost(secretHashCost)}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** scrypt's work at a cost, which its time follows: N·r·p. */
const workOf = ({ N, r, p }: ScryptCost) => N * r * p;

/**
 * Checks `secret` at the cost its hash was made at, so hashes made before a change of cost still check.
 * A hash made at a lower cost than `today` (before a raise; renewed once its secret checks) is checked
 * with at least today's work, by deriving again at its own cost: otherwise a known email whose owner
 * has not signed in since would answer sooner than an unknown one, whose decoy hash is at today's cost.
 */
export async function verifySecret(secret: string, stored: string, today: ScryptCost = secretHashCost): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const expected = Buffer.from(parsed.key, 'base64url');
  const salt = Buffer.from(parsed.salt, 'base64url');
  const actual = await derive(secret, salt, parsed.cost);
  for (let work = workOf(parsed.cost); work < workOf(today); work += workOf(parsed.cost)) await derive(secret, salt, parsed.cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** True when a hash was made at another cost than today's: once its secret is checked, hash it again. */
export function hashIsOutdated(stored: string): boolean {
  const parsed = parseHash(stored);
  return parsed !== null && writeCost(parsed.cost) !== writeCost(secretHashCost);
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
