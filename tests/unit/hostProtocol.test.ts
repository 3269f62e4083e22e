/**
 * The host protocol validators (contract/hostProtocol.ts): every message from another window is
 * untrusted input, so well-formed messages are read back exactly and anything else is dropped
 * (undefined), never thrown on.
 */
import { describe, expect, it } from 'vitest';
import {
  hostProtocol,
  noticeMessage,
  parseAppMessage,
  parseHostMessage,
  queryMessage,
  replyChecks,
  type HostQueryType,
} from '../../contract/hostProtocol.ts';

const queryTypes = Object.keys(replyChecks) as HostQueryType[];

/** A well-formed reply payload for each query. */
const goodReplies: Record<HostQueryType, unknown> = {
  'state.load': { state: { locale: 'es', onboarded: true } },
  'deviceId.get': { deviceId: 'device-1' },
  'notificationPermission.get': { permission: 'ENABLED' },
  'notificationPermission.request': { permission: 'DISABLED' },
  'parentApp.uuid.get': { uuid: '5b1c1c1e-0000-4000-8000-000000000001' },
  'parentApp.authEmail.get': { authEmail: 'ana@example.test', authSource: 'google' },
  'parentApp.userSettings.get': { userSettings: { eligibleBenefits: ['EBT', 'WIC', 'CTC', 'SSI_SSDI'] } },
  'parentApp.accessToken.get': { accessToken: 'companion-token' },
  'parentApp.ebtLink.get': { ebtaccountId: 'ebt-1', uid: 'uid-1' },
};

/** Inputs that are not objects at all, or objects of the wrong shape. */
const nonMessages: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a string', `{"protocol":"${hostProtocol}","type":"reply","replyTo":"q1"}`],
  ['a number', 42],
  ['a boolean', true],
  ['an array', [hostProtocol, 'reply', 'q1']],
  ['an empty object', {}],
];

/** A Proxy whose every property read throws: what a hostile or buggy same-realm caller could pass. */
const throwingProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('getter exploded');
      },
    },
  );

/** An object with a throwing getter on the field the parser reads first. */
const throwingGetter = () =>
  Object.defineProperty({ type: 'reply', replyTo: 'q1' }, 'protocol', {
    enumerable: true,
    get() {
      throw new Error('getter exploded');
    },
  });

describe('parseHostMessage: well-formed messages', () => {
  it('reads a reply with its payload', () => {
    const data = { protocol: hostProtocol, type: 'reply', replyTo: 'q-1', payload: { deviceId: 'd-1' } };
    expect(parseHostMessage(data)).toEqual({ protocol: hostProtocol, type: 'reply', replyTo: 'q-1', payload: { deviceId: 'd-1' } });
  });

  it("reads a reply with an error string (the host's 'unsupported')", () => {
    const message = parseHostMessage({ protocol: hostProtocol, type: 'reply', replyTo: 'q-2', error: 'unsupported' });
    expect(message).toMatchObject({ type: 'reply', replyTo: 'q-2', error: 'unsupported' });
  });

  it.each(['UNKNOWN', 'NOT_YET_REQUESTED', 'DISABLED', 'ENABLED'])('reads a notificationPermission.changed push with %s', (permission) => {
    expect(parseHostMessage({ protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission } })).toEqual({
      protocol: hostProtocol,
      type: 'notificationPermission.changed',
      payload: { permission },
    });
  });

  it('keeps only the protocol fields of a reply (extra fields from the host are dropped)', () => {
    const message = parseHostMessage({ protocol: hostProtocol, type: 'reply', replyTo: 'q-3', payload: 1, injected: '<script>' });
    expect(message).not.toHaveProperty('injected');
  });
});

describe('parseHostMessage: rejects without throwing', () => {
  const reply = { protocol: hostProtocol, type: 'reply', replyTo: 'q-1', payload: {} };

  it.each<[string, unknown]>([
    ...nonMessages,
    ['another protocol version', { ...reply, protocol: 'providers-card-host/2' }],
    ['no protocol', { type: 'reply', replyTo: 'q-1' }],
    ['an unknown type', { protocol: hostProtocol, type: 'state.wipe', payload: {} }],
    ['an app-side message type (a query)', { protocol: hostProtocol, type: 'deviceId.get', id: 'q-1' }],
    ['a prototype key as type', { protocol: hostProtocol, type: '__proto__', payload: { permission: 'ENABLED' } }],
    ['a reply without replyTo', { protocol: hostProtocol, type: 'reply', payload: {} }],
    ['a numeric replyTo', { ...reply, replyTo: 7 }],
    ['a replyTo longer than 64 characters', { ...reply, replyTo: 'q'.repeat(65) }],
    ['a non-string error', { ...reply, error: { message: 'x' } }],
    ['a null error', { ...reply, error: null }],
    ['an error longer than 256 characters', { ...reply, error: 'e'.repeat(257) }],
    ['a push with permission MAYBE', { protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'MAYBE' } }],
    ['a push with a lower-case permission', { protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'enabled' } }],
    ['a push without payload', { protocol: hostProtocol, type: 'notificationPermission.changed' }],
    ['a push whose payload is an array', { protocol: hostProtocol, type: 'notificationPermission.changed', payload: ['ENABLED'] }],
  ])('%s', (_name, data) => {
    expect(() => parseHostMessage(data)).not.toThrow();
    expect(parseHostMessage(data)).toBeUndefined();
  });

  it('accepts a replyTo of exactly 64 characters (the limit is inclusive)', () => {
    expect(parseHostMessage({ ...reply, replyTo: 'q'.repeat(64) })).toMatchObject({ replyTo: 'q'.repeat(64) });
  });

  it('an object whose property getter throws is dropped, not thrown on', () => {
    let result: unknown = 'not called';
    expect(() => (result = parseHostMessage(throwingGetter()))).not.toThrow();
    expect(result).toBeUndefined();
  });

  it('a Proxy whose get trap throws is dropped, not thrown on', () => {
    let result: unknown = 'not called';
    expect(() => (result = parseHostMessage(throwingProxy()))).not.toThrow();
    expect(result).toBeUndefined();
  });
});

describe('replyChecks: the payload of each reply', () => {
  it.each(queryTypes)('%s accepts a well-formed payload', (type) => {
    expect(replyChecks[type](goodReplies[type])).toBe(true);
  });

  it.each(queryTypes)('%s rejects null, a string, a number and an array', (type) => {
    for (const bad of [null, undefined, 'ENABLED', 1, [goodReplies[type]]]) expect(replyChecks[type](bad)).toBe(false);
  });

  it.each<[HostQueryType, string, unknown]>([
    ['state.load', 'state as an array', { state: [{ locale: 'es' }] }],
    ['state.load', 'state as a string', { state: '{"locale":"es"}' }],
    ['state.load', 'state over 16 KiB', { state: { blob: 'x'.repeat(16_384) } }],
    ['state.load', 'no state field', {}],
    ['deviceId.get', 'an empty device id', { deviceId: '' }],
    ['deviceId.get', 'a device id over 128 characters', { deviceId: 'd'.repeat(129) }],
    ['deviceId.get', 'a numeric device id', { deviceId: 12345 }],
    ['notificationPermission.get', "permission 'MAYBE'", { permission: 'MAYBE' }],
    ['notificationPermission.request', 'no permission', {}],
    ['parentApp.uuid.get', 'a numeric uuid', { uuid: 42 }],
    ['parentApp.uuid.get', 'a uuid over 256 characters', { uuid: 'u'.repeat(257) }],
    ['parentApp.authEmail.get', 'a missing authSource', { authEmail: 'ana@example.test' }],
    ['parentApp.userSettings.get', "eligibleBenefits ['FOOD']", { userSettings: { eligibleBenefits: ['FOOD'] } }],
    ['parentApp.userSettings.get', 'one unknown benefit among known ones', { userSettings: { eligibleBenefits: ['EBT', 'food'] } }],
    ['parentApp.userSettings.get', 'eligibleBenefits as a string', { userSettings: { eligibleBenefits: 'EBT' } }],
    ['parentApp.userSettings.get', 'userSettings as an array', { userSettings: [['EBT']] }],
    ['parentApp.accessToken.get', 'a token over 4096 characters', { accessToken: 't'.repeat(4097) }],
    ['parentApp.accessToken.get', 'a token object', { accessToken: { value: 't' } }],
    ['parentApp.ebtLink.get', 'an ebtaccountId over 64 characters', { ebtaccountId: 'e'.repeat(65), uid: null }],
    ['parentApp.ebtLink.get', 'a missing uid', { ebtaccountId: 'ebt-1' }],
  ])('%s rejects %s', (type, _name, payload) => {
    expect(replyChecks[type](payload)).toBe(false);
  });

  it.each<[HostQueryType, unknown]>([
    ['state.load', { state: null }],
    ['parentApp.uuid.get', { uuid: null }],
    ['parentApp.authEmail.get', { authEmail: null, authSource: null }],
    ['parentApp.userSettings.get', { userSettings: { eligibleBenefits: [] } }],
    ['parentApp.accessToken.get', { accessToken: null }],
    ['parentApp.ebtLink.get', { ebtaccountId: null, uid: null }],
  ])('%s accepts the "nothing there" answer %j', (type, payload) => {
    expect(replyChecks[type](payload)).toBe(true);
  });

  // An optional field a host gets wrong must not cost the reply its benefits (nor the start-up its host).
  it.each(['es-US', 'es-US-u-ca-gregory-fw-mon-mu-celsius-nu-latn', null, 34, { tag: 'es' }])(
    "parentApp.userSettings.get accepts any companion app's language, %j (used only when a tag it speaks)",
    (language) => {
      expect(replyChecks['parentApp.userSettings.get']({ userSettings: { eligibleBenefits: ['EBT'], language } })).toBe(true);
    },
  );

  it('state.load accepts a saved state just under the 16 KiB limit', () => {
    // {"blob":"…"} is 11 characters around the blob.
    expect(replyChecks['state.load']({ state: { blob: 'x'.repeat(16_384 - 11) } })).toBe(true);
    expect(replyChecks['state.load']({ state: { blob: 'x'.repeat(16_384 - 10) } })).toBe(false);
  });

  it('state.load drops a saved state that JSON cannot measure (a cycle, kept by structured clone), without throwing', () => {
    const state: Record<string, unknown> = { locale: 'es' };
    state.self = state;
    let result: unknown = 'not called';
    expect(() => (result = replyChecks['state.load']({ state }))).not.toThrow();
    expect(result).toBe(false);
  });

  it('state.load drops a saved state holding a BigInt (structured clone keeps it), without throwing', () => {
    let result: unknown = 'not called';
    expect(() => (result = replyChecks['state.load']({ state: { balance: 10n } }))).not.toThrow();
    expect(result).toBe(false);
  });
});

describe('parseAppMessage: well-formed messages', () => {
  it.each(queryTypes)('reads the query %s with its id', (type) => {
    expect(parseAppMessage(queryMessage(type, 'q-9'))).toEqual({ protocol: hostProtocol, type, id: 'q-9' });
  });

  const sitevars = {
    hasRefreshToken: true,
    hostname: 'card.example.test',
    inEmbedded: true,
    registrationWave: null,
    hasActivated: false,
    hasFundedAnyKind: false,
    hasPhysicalCard: false,
  };
  it.each([
    noticeMessage('state.save', { state: { locale: 'en' } }),
    noticeMessage('url.open', { url: 'https://example.test/help' }),
    noticeMessage('url.open', { url: 'http://example.test/help' }),
    noticeMessage('clipboard.copy', { text: '400012345678' }),
    noticeMessage('hostRoute.return', { route: 'benefits' }),
    noticeMessage('cms.sitevars', { sitevars }),
  ])('reads the notice %j', (message) => {
    expect(parseAppMessage(message)).toEqual(message);
  });

  it('keeps only the protocol fields of a notice payload', () => {
    const message = parseAppMessage({ protocol: hostProtocol, type: 'clipboard.copy', payload: { text: 'x', extra: 'y' } });
    expect(message).toEqual(noticeMessage('clipboard.copy', { text: 'x' }));
  });
});

describe('parseAppMessage: rejects without throwing', () => {
  it.each<[string, unknown]>([
    ...nonMessages,
    ['another protocol', { protocol: 'other/1', type: 'deviceId.get', id: 'q-1' }],
    ['a numeric type', { protocol: hostProtocol, type: 3, id: 'q-1' }],
    ['an unknown type', { protocol: hostProtocol, type: 'card.freeze', payload: {} }],
    ['a host-side type (reply)', { protocol: hostProtocol, type: 'reply', replyTo: 'q-1', payload: {} }],
    ['a query without id', { protocol: hostProtocol, type: 'deviceId.get' }],
    ['a query with a numeric id', { protocol: hostProtocol, type: 'deviceId.get', id: 1 }],
    ['a query with an id over 64 characters', { protocol: hostProtocol, type: 'deviceId.get', id: 'i'.repeat(65) }],
    ['a notice without payload', { protocol: hostProtocol, type: 'url.open' }],
    ['a notice with a string payload', { protocol: hostProtocol, type: 'url.open', payload: 'https://example.test' }],
    ['url javascript:alert(1)', { protocol: hostProtocol, type: 'url.open', payload: { url: 'javascript:alert(1)' } }],
    ['url data:text/html', { protocol: hostProtocol, type: 'url.open', payload: { url: 'data:text/html,<script>1</script>' } }],
    ['a protocol-relative url', { protocol: hostProtocol, type: 'url.open', payload: { url: '//evil.test/' } }],
    ['a url over 2048 characters', { protocol: hostProtocol, type: 'url.open', payload: { url: `https://e.test/${'a'.repeat(2048)}` } }],
    ['state.save with state as an array', { protocol: hostProtocol, type: 'state.save', payload: { state: [1, 2] } }],
    ['state.save with a null state', { protocol: hostProtocol, type: 'state.save', payload: { state: null } }],
    ['clipboard text over 256 characters', { protocol: hostProtocol, type: 'clipboard.copy', payload: { text: 't'.repeat(257) } }],
    ['a numeric route', { protocol: hostProtocol, type: 'hostRoute.return', payload: { route: 5 } }],
    ['sitevars as a string', { protocol: hostProtocol, type: 'cms.sitevars', payload: { sitevars: 'hasActivated=true' } }],
  ])('%s', (_name, data) => {
    expect(() => parseAppMessage(data)).not.toThrow();
    expect(parseAppMessage(data)).toBeUndefined();
  });

  it('an object whose property getter throws is dropped, not thrown on', () => {
    let result: unknown = 'not called';
    expect(() => (result = parseAppMessage(throwingGetter()))).not.toThrow();
    expect(result).toBeUndefined();
  });

  it('a Proxy whose get trap throws is dropped, not thrown on', () => {
    let result: unknown = 'not called';
    expect(() => (result = parseAppMessage(throwingProxy()))).not.toThrow();
    expect(result).toBeUndefined();
  });
});
