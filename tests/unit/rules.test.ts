/**
 * Every spec §5 rule of contract/rules.ts, valid and failing. The forms run these checks as the user
 * types; the card API runs the same ones through contract/validation.ts (tests/server/registration*).
 */
import { describe, expect, it } from 'vitest';
import {
  addressChecks,
  checkCity,
  checkDob,
  checkEmail,
  checkFirstName,
  checkLastName,
  checkMiddleName,
  checkNewPassword,
  checkNewUnlockCode,
  checkPassword,
  checkPhone,
  checkSsn,
  checkState,
  checkStreet1,
  checkStreet2,
  checkUnlockCode,
  checkUnlockCodeConfirmation,
  checkZip,
  digitsOf,
  fieldErrors,
  isObviousCode,
  minimumAge,
  personalInfoChecks,
  ValidationMessage as M,
} from '../../contract/rules.ts';
import { stateCodes } from '../../contract/shared/address.ts';

describe('checkEmail', () => {
  it.each(['ana@example.com', ' ana@example.com ', "o'brien+card@mail.example.org", 'a.b-c_d%e@sub-domain.example.co'])(
    'accepts %j',
    (email) => expect(checkEmail(email)).toBeNull(),
  );
  it.each([
    ['', M.emailRequired],
    ['   ', M.emailRequired],
    [undefined, M.emailRequired],
    [42, M.emailRequired],
    ['ana', M.emailInvalid],
    ['ana@', M.emailInvalid],
    ['ana@example', M.emailInvalid],
    ['ana@@example.com', M.emailInvalid],
    ['ana maria@example.com', M.emailInvalid],
    ['josé@example.com', M.emailInvalid],
    ['ana@exámple.com', M.emailInvalid],
    ['ana@example.c', M.emailInvalid],
    [`${'a'.repeat(250)}@example.com`, M.tooLong],
  ])('rejects %j with %s', (email, message) => expect(checkEmail(email)).toBe(message));
});

describe('checkPassword (sign-in)', () => {
  it('accepts any non-empty password up to 128 characters', () => {
    expect(checkPassword('Providers2026')).toBeNull();
    expect(checkPassword('x'.repeat(128))).toBeNull();
  });
  it('rejects an empty or overlong password', () => {
    expect(checkPassword('')).toBe(M.passwordRequired);
    expect(checkPassword(undefined)).toBe(M.passwordRequired);
    expect(checkPassword('x'.repeat(129))).toBe(M.tooLong);
  });
});

describe('checkUnlockCode and checkNewUnlockCode', () => {
  it('accepts 4 digits', () => {
    expect(checkUnlockCode('2580')).toBeNull();
    expect(checkUnlockCode('1111')).toBeNull(); // an existing code is only checked for shape
    expect(checkNewUnlockCode('2580')).toBeNull();
    expect(checkNewUnlockCode('1357')).toBeNull();
    expect(checkNewUnlockCode('0912')).toBeNull();
  });
  it.each([
    ['', M.unlockCodeRequired],
    [undefined, M.unlockCodeRequired],
    ['258', M.unlockCodeInvalid],
    ['25800', M.unlockCodeInvalid],
    ['25a0', M.unlockCodeInvalid],
    [' 2580', M.unlockCodeInvalid],
    ['２５８０', M.unlockCodeInvalid],
  ])('rejects %j with %s', (code, message) => {
    expect(checkUnlockCode(code)).toBe(message);
    expect(checkNewUnlockCode(code)).toBe(message);
  });
  it.each(['1111', '0000', '9999', '1234', '0123', '6789', '4321', '9876', '3210'])('calls %s obvious for a new code', (code) => {
    expect(isObviousCode(code)).toBe(true);
    expect(checkNewUnlockCode(code)).toBe(M.unlockCodeObvious);
  });
  it.each(['1212', '1123', '2468', '9012', '1235'])('does not call %s obvious', (code) => {
    expect(isObviousCode(code)).toBe(false);
  });
  it('wants the confirmation to repeat the code', () => {
    expect(checkUnlockCodeConfirmation('2580', '2580')).toBeNull();
    expect(checkUnlockCodeConfirmation('2580', '2581')).toBe(M.unlockCodeMismatch);
    expect(checkUnlockCodeConfirmation('2580', '')).toBe(M.unlockCodeMismatch);
  });
});

describe('names', () => {
  it.each(['Ana', 'José', 'Zoë', "O'Brien", 'O’Brien', 'Mary-Jane', 'De La Cruz', 'Nguyễn', '  Ana  ', 'Łukasz'])(
    'accepts %j',
    (name) => {
      expect(checkFirstName(name)).toBeNull();
      expect(checkLastName(name)).toBeNull();
      expect(checkMiddleName(name)).toBeNull();
    },
  );
  it.each(['Ana1', 'Ana!', 'Ana_Maria', "'Ana", '-Ana', 'Ana.', 'Ana, Maria', '<script>', '😀'])('rejects %j', (name) => {
    expect(checkFirstName(name)).toBe(M.nameInvalid);
    expect(checkLastName(name)).toBe(M.nameInvalid);
    expect(checkMiddleName(name)).toBe(M.nameInvalid);
  });
  it('requires first and last name but not the middle name', () => {
    expect(checkFirstName('')).toBe(M.firstNameRequired);
    expect(checkFirstName('   ')).toBe(M.firstNameRequired);
    expect(checkLastName('')).toBe(M.lastNameRequired);
    expect(checkLastName(undefined)).toBe(M.lastNameRequired);
    expect(checkMiddleName('')).toBeNull();
  });
  it('rejects names over 50 characters', () => {
    expect(checkFirstName('A'.repeat(50))).toBeNull();
    expect(checkFirstName('A'.repeat(51))).toBe(M.tooLong);
  });
});

describe('checkPhone', () => {
  it.each(['5592014477', '559-201-4477', '(559) 201-4477', '559 201 4477'])('accepts %j', (phone) =>
    expect(checkPhone(phone)).toBeNull(),
  );
  it.each([
    ['', M.phoneRequired],
    ['---', M.phoneRequired],
    [undefined, M.phoneRequired],
    ['559201447', M.phoneLength],
    ['15592014477', M.phoneLength],
    ['+1 559 201 4477', M.phoneLength],
    ['1592014477', M.phoneInvalid],
    ['0592014477', M.phoneInvalid],
  ])('rejects %j with %s', (phone, message) => expect(checkPhone(phone)).toBe(message));
  it('reduces a phone to its digits', () => expect(digitsOf('(559) 201-4477')).toBe('5592014477'));
});

describe('checkSsn', () => {
  it.each(['123-45-6789', '123456789', '123 45 6789', '001-01-0001', '899-99-9999'])('accepts %j', (ssn) =>
    expect(checkSsn(ssn)).toBeNull(),
  );
  it.each(['900-12-3456', '912-70-1234', '999999999'])('rejects the ITIN %j', (ssn) => expect(checkSsn(ssn)).toBe(M.ssnItin));
  it.each([
    ['', 'empty'],
    ['12345678', '8 digits'],
    ['1234567890', '10 digits'],
    ['123.45.6789', 'dots'],
    ['123-45-678a', 'a letter'],
    ['000-12-3456', 'area 000'],
    ['666-12-3456', 'area 666'],
    ['123-00-4567', 'group 00'],
    ['123-45-0000', 'serial 0000'],
  ])('rejects %j (%s)', (ssn) => expect(checkSsn(ssn)).toBe(M.ssnInvalid));
  it('rejects a number instead of a string', () => expect(checkSsn(123456789)).toBe(M.ssnInvalid));
});

describe('checkDob', () => {
  // Noon local time, so the date is the same in every time zone the tests run in.
  const today = new Date(2026, 4, 15, 12);

  it('accepts someone who turned 18 today', () => expect(checkDob('05/15/2008', today)).toBeNull());
  it('accepts someone much older', () => expect(checkDob('01/31/1950', today)).toBeNull());
  it('refuses someone who turns 18 tomorrow', () => expect(checkDob('05/16/2008', today)).toBe(M.dobUnder18));
  it('refuses a child', () => expect(checkDob('01/01/2015', today)).toBe(M.dobUnder18));
  it('refuses someone born today (a real date, but under 18)', () => expect(checkDob('05/15/2026', today)).toBe(M.dobUnder18));
  it('counts a 29 February birthday from 1 March in other years', () => {
    expect(checkDob('02/29/2008', new Date(2026, 1, 28, 12))).toBe(M.dobUnder18);
    expect(checkDob('02/29/2008', new Date(2026, 2, 1, 12))).toBeNull();
  });
  it.each([
    ['', 'empty'],
    ['5/15/2000', 'one-digit month'],
    ['2000-05-15', 'ISO order'],
    ['15/05/2000', 'day first'],
    ['02/30/2000', 'no 30 February'],
    ['02/29/2001', 'no 29 February in 2001'],
    ['13/01/2000', 'month 13'],
    ['00/10/2000', 'month 0'],
    ['01/01/1899', 'before 1900'],
    ['05/16/2026', 'tomorrow'],
    ['01/01/2030', 'in the future'],
  ])('calls %j invalid (%s)', (dob) => expect(checkDob(dob, today)).toBe(M.dobInvalid));
  it('uses 18 as the minimum age', () => expect(minimumAge).toBe(18));
});

describe('address', () => {
  it('requires street, city, state and ZIP but not the unit', () => {
    expect(fieldErrors(addressChecks, { street1: '', street2: '', city: '', state: '', zip: '' })).toEqual({
      street1: M.street1Required,
      city: M.cityRequired,
      state: M.stateRequired,
      zip: M.zipRequired,
    });
    expect(
      fieldErrors(addressChecks, { street1: '1420 N Blackstone Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93703' }),
    ).toEqual({});
  });
  it('limits lengths', () => {
    expect(checkStreet1('x'.repeat(100))).toBeNull();
    expect(checkStreet1('x'.repeat(101))).toBe(M.tooLong);
    expect(checkStreet2('x'.repeat(51))).toBe(M.tooLong);
    expect(checkCity('x'.repeat(51))).toBe(M.tooLong);
  });
  it('accepts exactly the 50 state codes', () => {
    expect(stateCodes).toHaveLength(50);
    for (const state of stateCodes) expect(checkState(state)).toBeNull();
  });
  it.each(['DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'ca', 'California', 'C'])('rejects %j', (state) =>
    expect(checkState(state)).toBe(M.stateInvalid),
  );
  it.each([
    ['93703', 5],
    ['93703-', 6],
    ['93703-1234', 10],
  ])('accepts the ZIP %j (length %i)', (zip, length) => {
    expect(zip).toHaveLength(length);
    expect(checkZip(zip)).toBeNull();
  });
  it.each(['9370', '937031', '937031234', '93703-12', '93703-12345', '9370a', 'ABCDE', '93703 1234'])(
    'rejects the ZIP %j',
    (zip) => expect(checkZip(zip)).toBe(M.zipInvalid),
  );
});

describe('fieldErrors', () => {
  it('gives each field its first failing message', () => {
    expect(
      fieldErrors(personalInfoChecks, {
        firstName: '',
        middleName: '',
        lastName: 'Lopez1',
        dob: '01/01/2020',
        ssn: '900-00-0000',
        email: 'maria@',
      }),
    ).toEqual({
      firstName: M.firstNameRequired,
      lastName: M.nameInvalid,
      dob: M.dobUnder18,
      ssn: M.ssnItin,
      email: M.emailInvalid,
    });
  });
});

describe('checkNewPassword (spec §5)', () => {
  it.each([
    ['', M.passwordRequired],
    ['short1', M.passwordTooShort],
    ['seven77', M.passwordTooShort],
    ['has space1', M.passwordSpaces],
    ['tab\tinside', M.passwordSpaces],
    ['x'.repeat(129), M.tooLong],
    ['eight888', null],
    ['Providers2026', null],
  ])('%j → %s', (password, expected) => {
    expect(checkNewPassword(password)).toBe(expected);
  });
});
