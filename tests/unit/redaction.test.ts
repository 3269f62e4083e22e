import { describe, expect, it } from 'vitest';
import { redactAnalytics, redactContext, redactedMark, redactStrings, redactText } from '../../contract/shared/redaction.ts';

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjMmExZSJ9.Q2h1bmstb2Ytc2lnbmF0dXJlLWJ5dGVz';
const refreshToken = 'q9X2vYk3_Lm0Pz-7wRt5uNb8cJd1fHg4sAe6iKo2Mv'; // 42 base64url characters
const uuid = '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70';

describe('redactText', () => {
  it.each([
    ['a JWT', `Bearer ${jwt} was rejected`, 'Bearer [redacted] was rejected'],
    ['an unsigned JWT', 'token eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. end', 'token [redacted] end'],
    ['a JWT in a query string', `/signin?token=${jwt}&next=/home`, '/signin?token=[redacted]&next=/home'],
    ['a 16-digit card number', 'card 4111111111111111 declined', 'card [redacted] declined'],
    ['a card number with spaces', 'card 4111 1111 1111 1111.', 'card [redacted].'],
    ['a card number with dashes', 'pan=4111-1111-1111-1111', 'pan=[redacted]'],
    ['a 13-digit card number', '4222222222222', '[redacted]'],
    ['a 19-digit card number', 'x6011000990139424123x', 'x[redacted]x'],
    ['an SSN with dashes', 'ssn 123-45-6789 taken', 'ssn [redacted] taken'],
    ['nine digits in a row', 'itin:912345678', 'itin:[redacted]'],
    ['a long random token', `refresh ${refreshToken}`, 'refresh [redacted]'],
    ['several secrets at once', `${jwt} 123-45-6789 4111111111111111`, '[redacted] [redacted] [redacted]'],
    // Addresses from RFC 5322 §3.4.1 and RFC 3696 §3, and internationalised ones (RFC 6531).
    ['an email address', 'sign-in failed for maria@example.com today', 'sign-in failed for [redacted] today'],
    ['an email address with dots and a subdomain', 'first.last@mail.example.co.uk', '[redacted]'],
    ['an email address with a tag', 'user+tag@example.org.', '[redacted].'],
    ["an email address with atext's symbols", "o'brien_j!#$%*^`{|}~-x@example.net", '[redacted]'],
    ['an email address with a quoted local part', 'to "john..doe"@example.com now', 'to [redacted] now'],
    ['an email address with a domain literal', 'user@[192.0.2.1]', '[redacted]'],
    ['an internationalised email address', 'josé@exámple.com', '[redacted]'],
    ['an email address with a punycode domain', 'mailto:ana@xn--exmple-cua.com', 'mailto:[redacted]'],
    ['an email address with a punycode top-level domain', 'ana@example.xn--p1ai!', '[redacted]!'],
    ['an uppercase email address', 'ANA@EXAMPLE.COM', '[redacted]'],
    ['an email address with dots side by side (RFC 5322 §4.4 obs-local-part)', 'john..doe@example.com', '[redacted]'],
    ['an email address with a dot before its @', 'for ana.@example.com', 'for [redacted]'],
    ['an email address after dots', 'see...ana@example.com', '[redacted]'],
    ["an email address in a URL's query", '/api/v1/x?email=maria%40example.com&step=2', '/api/v1/x?email=[redacted]&step=2'],
  ])('redacts %s', (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each([
    ['plain words', 'Home failed to load'],
    ['a money amount', 'Balance $1,234.56 after 3 purchases'],
    ['a phone number (10 digits)', 'Call 5592014477'],
    ['a ZIP+4', '93703-1234'],
    ['the last four of a card', 'card ending 4821'],
    ['an eight-digit number', 'ref 12345678'],
    ['a 20-digit number (not a card number)', '12345678901234567890'],
    ['a date and time', '2026-03-01T12:05:30.000Z'],
    ['a route with a host name', 'https://cards.example.com/home?step=2'],
    ['a record uuid', `card ${uuid} frozen`],
    ['a 31-character identifier', 'a'.repeat(31)],
    ['a package and its version', 'react-dom@19.3.1'],
    ['a scoped package path', 'node_modules/@lingui/core/dist/index.mjs'],
    ['a Firefox stack frame', 'render@https://cards.example.com/assets/index-abc.js:1:2'],
    ['a name at a host without a dot', 'postgres@localhost'],
  ])('keeps %s', (_name, text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactContext', () => {
  it.each([
    'accessToken',
    'refresh_token',
    'token',
    'password',
    'newPassword',
    'ssn',
    'SSN',
    'clientSecret',
    'unlockCode',
    'mfaCode',
    'code',
    'pan',
    'cardPan',
    'PAN',
    'cardNumber',
    'card_number',
    'Authorization',
  ])('redacts the value under the key %s whatever it looks like', (key) => {
    expect(redactContext({ [key]: 'short', other: 1 })).toEqual({ [key]: redactedMark, other: 1 });
    expect(redactContext({ [key]: 2580 })).toEqual({ [key]: redactedMark });
    expect(redactContext({ [key]: null })).toEqual({ [key]: redactedMark });
  });

  it.each(['statusCode', 'errorCode', 'result_code', 'company', 'companionOrigin', 'expanded', 'route', 'cardId', 'lastFour'])(
    'keeps the value under the key %s',
    (key) => {
      expect(redactContext({ [key]: 'value-1' })).toEqual({ [key]: 'value-1' });
    },
  );

  it('runs other string values through redactText and keeps numbers, booleans and null', () => {
    const context = { url: `/unlock?t=${jwt}`, note: 'ssn 123-45-6789', attempts: 3, embedded: true, step: null };

    expect(redactContext(context)).toEqual({ url: '/unlock?t=[redacted]', note: 'ssn [redacted]', attempts: 3, embedded: true, step: null });
  });

  it('does not change the record it was given', () => {
    const context = { accessToken: jwt };

    redactContext(context);

    expect(context).toEqual({ accessToken: jwt });
  });
});

describe('redactStrings', () => {
  it('redacts strings at any depth, keeping the shape and every other value', () => {
    const properties = { route: '/activate', query: { next: `/home?token=${jwt}` }, params: ['4111111111111111', 7], visible: false };

    expect(redactStrings(properties)).toEqual({ route: '/activate', query: { next: '/home?token=[redacted]' }, params: ['[redacted]', 7], visible: false });
  });
});

describe('redactAnalytics', () => {
  it.each([
    ['pw', { pw: 'hunter2' }],
    ['code', { code: 'abc' }],
    ['unlock', { unlock: 'x' }],
    ['pin', { pin: 'x' }],
    ['otp', { otp: 'x' }],
  ])('redacts the value under the key %s', (_key, properties) => {
    expect(Object.values(redactAnalytics(properties) as object)).toEqual([redactedMark]);
  });

  it("redacts personal data: a route visit's query with a registration profile, an email, a phone, a date of birth", () => {
    const profile = JSON.stringify({ firstName: 'Maria', lastName: 'Lopez', dob: '04/12/1986', street1: '2231 E Shields Ave' });
    const visit = { name: '/register/{-$step}', query: { profile, step: '2' }, params: { step: '2' } };
    expect(redactAnalytics(visit)).toEqual({ name: '/register/{-$step}', query: { profile: redactedMark, step: '2' }, params: { step: '2' } });
    expect(redactAnalytics({ email: 'maria@example.com', userPhone: '5592014477', dob: '04/12/1986', firstName: 'Maria', addressLegal: { zip: '93721' } })).toEqual({
      email: redactedMark,
      userPhone: redactedMark,
      dob: redactedMark,
      firstName: redactedMark,
      addressLegal: redactedMark,
    });
    // Not personal: what the product's events are about.
    expect(redactAnalytics({ name: 'home', result: 'success', showNewDebitDetails: true })).toEqual({ name: 'home', result: 'success', showNewDebitDetails: true });
  });

  it('redacts strings that are only a code\'s digits, under any key and at any depth', () => {
    expect(redactAnalytics({ value: '482913', nested: { list: [' 1234 ', 'step 2', 12] } })).toEqual({
      value: redactedMark,
      nested: { list: [redactedMark, 'step 2', 12] },
    });
  });

  it('redacts everything typed beside a password field', () => {
    expect(redactAnalytics({ form: { email: 'rosa@example.com', password: 'x', remember: true }, screen: 'signin' })).toEqual({
      form: { email: redactedMark, password: redactedMark, remember: redactedMark },
      screen: 'signin',
    });
  });

  it('keeps what an event is about: names, steps, outcome codes, counts', () => {
    const properties = { screen: 'register', step: 3, statusCode: 201, durationMs: 15000, locale: 'es' };
    expect(redactAnalytics(properties)).toEqual(properties);
  });
});
