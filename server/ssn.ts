/**
 * SSNs at rest (ARCHITECTURE.md §6): AES-256-GCM with a random 96-bit IV per value and the user id as
 * associated data (a ciphertext copied to another row does not decrypt), plus a keyed hash
 * (HMAC-SHA256 under a second key) that finds an SSN already in use without decrypting anything.
 * The SSN in clear exists only in memory while a request is handled; it is never logged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { digitsOf } from '../contract/rules.ts';
import { keyedHash } from './secrets.ts';

export type SsnKeys = { ssnEncryptionKey: Buffer; ssnHashKey: Buffer };

const scheme = 'aesgcm';
const associatedData = (userId: string) => Buffer.from(`users.ssn:${userId}`);

/** The 9 digits of an SSN typed with or without dashes. */
export const ssnDigits = (ssn: string): string => digitsOf(ssn);

/** `aesgcm$<iv>$<ciphertext>$<tag>` (base64url), bound to the user's id. */
export function encryptSsn(ssn: string, key: Buffer, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(userId));
  const ciphertext = Buffer.concat([cipher.update(ssnDigits(ssn), 'utf8'), cipher.final()]);
  return [scheme, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('$');
}

/** The 9 digits, or an error when the value was altered, moved to another user or made with another key. */
export function decryptSsn(stored: string, key: Buffer, userId: string): string {
  const [name, iv, ciphertext, tag] = stored.split('$');
  if (name !== scheme || !iv || !ciphertext || !tag) throw new Error('Not an encrypted SSN.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(associatedData(userId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** The keyed hash stored in users.ssn_hash (unique): equal SSNs, equal hashes, whatever the dashes. */
export function ssnHash(ssn: string, key: Buffer): string {
  return keyedHash(key, 'ssn', ssnDigits(ssn));
}
