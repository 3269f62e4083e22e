/** Sealed columns (server/sealedFields.ts): SSNs stored before the sealing was shared with dates of birth still open. */
import { describe, expect, it } from 'vitest';
import { unsealDob } from '../../../server/datesOfBirth.ts';
import { decryptSsn, encryptSsn } from '../../../server/ssn.ts';

const key = Buffer.alloc(32, 7);
const userId = '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70';
// Made by server/ssn.ts at 9a44450 (2026-12-02, before server/sealedFields.ts) for this key and user.
const storedBefore = 'aesgcm$b0M4GXAbcIwBMT30$f5NXJGVevyZB$6QQd-n2XTpHO13yFvM-Kgg';

describe('sealed SSNs', () => {
  it('stored before opens as it did, and only as an SSN of that user', () => {
    expect(decryptSsn(storedBefore, key, userId)).toBe('123456789');
    expect(() => decryptSsn(storedBefore, key, crypto.randomUUID())).toThrow();
    expect(() => unsealDob(storedBefore, key, userId)).toThrow();
  });

  it('each sealed anew with its own IV, opening to the same digits', () => {
    const [first, second] = [encryptSsn('123-45-6789', key, userId), encryptSsn('123456789', key, userId)];
    expect(first).not.toBe(second);
    expect([decryptSsn(first, key, userId), decryptSsn(second, key, userId)]).toEqual(['123456789', '123456789']);
  });
});
