/**
 * Personal data at rest (docs/security.md): the SSN and the date of birth, each sealed with AES-256-GCM
 * under SSN_ENCRYPTION_KEY, a random 96-bit IV per value and its column and user id as associated data
 * (a value copied to another column or row does not open). In clear only in memory while a request is
 * handled; never logged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type SealedColumn = 'users.ssn' | 'users.dob';

const scheme = 'aesgcm';
const associatedData = (column: SealedColumn, userId: string) => Buffer.from(`${column}:${userId}`);

/** `aesgcm$<iv>$<ciphertext>$<tag>` (base64url), bound to the column and the user's id. */
export function seal(value: string, key: Buffer, column: SealedColumn, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(column, userId));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [scheme, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('$');
}

/** The value, or an error when it was altered, moved to another column or user, or sealed with another key. */
export function unseal(stored: string, key: Buffer, column: SealedColumn, userId: string): string {
  const [name, iv, ciphertext, tag] = stored.split('$');
  if (name !== scheme || !iv || !ciphertext || !tag) throw new Error(`Not a sealed ${column}.`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(associatedData(column, userId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** What every sealed value starts with (a date of birth stored in clear before 2026-12-02 does not: `mm/dd/yyyy`). */
export const sealedPrefix = `${scheme}$`;
