/**
 * The sandbox address partner's rules (server/partners/address.ts, docs/sandbox.md "Registration
 * partners") on their own, for the Post Office Box and private mailbox forms of USPS Publication 28.
 * tests/server/identity/registrationSandbox.test.ts shows each code through POST /verify-address.
 */
import { describe, expect, it } from 'vitest';
import type { Address } from '../../contract/shared/address.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { sandboxAddressCode } from '../../server/partners/address.ts';

const home: Address = { street1: '845 E Dakota Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93704' };
const codeOf = (address: Partial<Address>) => sandboxAddressCode({ ...home, ...address });

describe('sandbox address check: Post Office Boxes (USPS Publication 28)', () => {
  it.each([
    'PO Box 123',
    'P.O. Box 123',
    'P O Box 123',
    'p.o.box 123',
    'P.O.Box 123',
    'POBox 123',
    'POB 123',
    'P.O.B. 123',
    'Post Office Box 123',
    'POST OFFICE BOX 123',
  ])('answers 304 for %j, not accepted nor commercial', (street1) => expect(codeOf({ street1 })).toBe(StatusCode.ADDRESS_PO_BOX));
  it('answers 304 for a PO Box written in the unit line', () => {
    expect(codeOf({ street2: 'Post Office Box 9' })).toBe(StatusCode.ADDRESS_PO_BOX);
  });
  it.each([
    ['12 Pobst Rd', ''],
    ['7 Via Po', 'B'],
    ['1 Post Office Sq Apt 3', ''],
  ])('does not read %j (unit %j) as a PO Box', (street1, street2) => expect(codeOf({ street1, street2 })).not.toBe(StatusCode.ADDRESS_PO_BOX));
});

describe('sandbox address check: private mailboxes at a mail drop', () => {
  it.each([
    [{ street1: 'PMB 45, 100 Main St' }],
    [{ street1: '100 Main St PMB 45' }],
    [{ street1: '100 Main St', street2: 'PMB 45' }],
    [{ street1: '100 Main St', street2: 'Private Mailbox 45' }],
    [{ street1: 'PMB 45, 100 Main St', street2: 'Suite 3' }],
  ])('answers the mail-drop code 307 for %j', (address) => expect(codeOf(address)).toBe(StatusCode.ADDRESS_MAIL_DROP));
  it('still accepts a residential address', () => expect(codeOf({})).toBeNull());
});
