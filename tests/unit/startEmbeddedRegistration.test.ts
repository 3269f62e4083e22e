/**
 * Embedded start-up (src/shared/host/startEmbedded.ts) as registration needs it: the companion user's uuid
 * reaches the Host (and so the registration payload), and the saved registration draft and
 * failed-registration marker come back from the host's saved state. A fake parent answers the
 * host protocol the way the companion app does.
 */
import { describe, expect, it, vi } from 'vitest';
import { hostProtocol, type QueryMessage } from '../../contract/hostProtocol.ts';
import { failedRegistrationMarker } from '../../machines/session/session.ts';
import { startEmbedded } from '../../src/shared/host/startEmbedded.ts';
import { savedDraft } from '../support/registrationRuns.ts';

const ownOrigin = 'http://localhost:8080';
const companion = 'https://companion.example.test';

function companionHost(answers: {
  state: Record<string, unknown> | null;
  uuid: string | null;
  accessToken?: string;
  deviceId?: string;
  ebtaccountId?: string | null;
  language?: unknown;
}) {
  const self = Object.assign(new EventTarget(), { location: { origin: ownOrigin } }) as EventTarget & { parent?: unknown };
  const payloads: Record<string, unknown> = {
    'state.load': { state: answers.state },
    'deviceId.get': { deviceId: answers.deviceId ?? 'device-from-host' },
    'notificationPermission.get': { permission: 'ENABLED' },
    'parentApp.uuid.get': { uuid: answers.uuid },
    'parentApp.authEmail.get': { authEmail: null, authSource: null },
    'parentApp.userSettings.get': { userSettings: { eligibleBenefits: ['EBT'], ...(answers.language === undefined ? {} : { language: answers.language }) } },
    'parentApp.ebtLink.get': { ebtaccountId: answers.ebtaccountId ?? null, uid: null },
    // No companion token: the providers sign-in is refused and no card API call is made.
    'parentApp.accessToken.get': { accessToken: answers.accessToken ?? null },
  };
  const parent = {
    postMessage: vi.fn((message: QueryMessage) => {
      if (!(message.type in payloads)) return;
      queueMicrotask(() =>
        self.dispatchEvent(
          new MessageEvent('message', {
            data: { protocol: hostProtocol, type: 'reply', replyTo: message.id, payload: payloads[message.type] },
            origin: companion,
            source: parent as unknown as MessageEventSource,
          }),
        ),
      );
    }),
  };
  self.parent = parent;
  return self as unknown as Window;
}

const start = (self: Window) =>
  startEmbedded(self, {
    config: { sandbox: true, hostOrigins: [companion], processorOrigins: [], accountLinkingOrigins: [], cmsPreviewOrigins: [], testRunnerOrigins: [] },
    parentOrigin: companion,
    defaultLocale: 'en',
    errors: { warning: vi.fn(), error: vi.fn() },
  });

const savedState = (fields: Record<string, unknown>) => ({
  schemaVersion: 2,
  accessToken: null,
  refreshToken: null,
  fingerprint: 'fp-1',
  deviceUUID: 'device-1',
  isInternal: false,
  ebtAccountId: null,
  locale: 'es',
  registrationDraft: null,
  ...fields,
});

describe('embedded start-up for registration', () => {
  it("hands the companion user's uuid to the app as the Host's providersUuid", async () => {
    const { host } = await start(companionHost({ state: null, uuid: 'companion-user-1' }));
    expect(host.providersUuid).toBe('companion-user-1');
  });

  it('has no providersUuid for a companion user without one', async () => {
    const { host } = await start(companionHost({ state: null, uuid: null }));
    expect(host.providersUuid).toBeNull();
  });

  it('restores the registration draft the host kept', async () => {
    const { initial } = await start(companionHost({ state: savedState({ registrationDraft: savedDraft(3) }), uuid: null }));
    expect(initial.registrationDraft).toEqual(savedDraft(3));
    expect(initial.locale).toBe('es');
  });

  it('restores the failed-registration marker, and reads state saved before the draft existed (schema 1)', async () => {
    const failed = await start(companionHost({ state: savedState({ refreshToken: failedRegistrationMarker }), uuid: null }));
    expect(failed.initial.refreshToken).toBe(failedRegistrationMarker);
    const { registrationDraft: _draft, ...version1 } = savedState({ schemaVersion: 1 });
    const old = await start(companionHost({ state: version1, uuid: null }));
    expect(old.initial).toMatchObject({ registrationDraft: null, locale: 'es', fingerprint: 'fp-1' });
  });

  it('offers registration to a companion user the card API has no account for (providers sign-in 403 {3})', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ statusCode: 3 }), { status: 403 }));
    vi.stubGlobal('fetch', fetch);
    try {
      const started = await start(companionHost({ state: null, uuid: 'companion-user-2', accessToken: 'companion-token' }));
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(started.needsRegistration).toBe(true);
      expect(started.initial.accessToken).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('does not offer registration when the companion token is refused (401 {100})', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ statusCode: 100 }), { status: 401 })));
    try {
      const started = await start(companionHost({ state: null, uuid: 'companion-user-3', accessToken: 'forged' }));
      expect(started.needsRegistration).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('signs a locked-out companion user in but sends them to reset the unlock code first', async () => {
    const answer = { statusCode: 0, access: 'access-1', refresh: 'refresh-1', isInternal: false, mustResetUnlockCode: true };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 })));
    try {
      const started = await start(companionHost({ state: null, uuid: 'companion-user-4', accessToken: 'companion-token' }));
      expect(started.mustResetUnlockCode).toBe(true);
      expect(started.initial).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("the companion app's language (ARCHITECTURE §9: the host's setting, then the browser)", () => {
  it.each([
    ['es-US', 'en', 'es'],
    ['EN', 'es', 'en'],
    ['es', null, 'es'],
    ['es_US', 'en', 'es'],
  ])('starts in the language its settings name (%s), over the saved %s', async (language, saved, expected) => {
    const { initial } = await start(companionHost({ state: saved === null ? null : savedState({ locale: saved }), uuid: null, language }));
    expect(initial.locale).toBe(expected);
  });

  it.each([
    ['a language the app does not speak', 'fr-CA'],
    ['no language', undefined],
    ['a language that is not a tag', null],
    ['a number for a language', 34],
  ])('keeps the saved language, and the host, with %s', async (_case, language) => {
    const { initial, host } = await start(companionHost({ state: savedState({ locale: 'es', registrationDraft: savedDraft(2) }), uuid: 'companion-user-9', language }));
    expect(initial.locale).toBe('es');
    // The host's other answers still count: its user and its saved draft.
    expect(host.providersUuid).toBe('companion-user-9');
    expect(initial.registrationDraft).toEqual(savedDraft(2));
  });

  it("keeps the browser's language without a saved one and with none from the host", async () => {
    const { initial } = await start(companionHost({ state: null, uuid: null }));
    expect(initial.locale).toBe('en');
  });
});

describe("the host's device id and EBT link, sent as headers on every call", () => {
  /** The providers sign-in's headers, read the way fetch reads them (it refuses a value outside Latin-1). */
  async function signInHeaders(answers: Omit<Parameters<typeof companionHost>[0], 'uuid'>) {
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      new Headers(init.headers);
      return new Response(JSON.stringify({ statusCode: 3 }), { status: 403 });
    });
    vi.stubGlobal('fetch', fetch);
    try {
      const started = await start(companionHost({ uuid: 'companion-user-5', accessToken: 'companion-token', ...answers }));
      expect(fetch).toHaveBeenCalledTimes(1);
      return { started, headers: new Headers(fetch.mock.calls[0]![1].headers) };
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it('takes both from the host when they can be sent', async () => {
    const { started, headers } = await signInHeaders({ state: savedState({ ebtAccountId: 'EBT-1' }), deviceId: 'host-device-7', ebtaccountId: 'EBT-4417-2209' });
    expect(started.initial).toMatchObject({ deviceUUID: 'host-device-7', ebtAccountId: 'EBT-4417-2209' });
    expect(headers.get('Device-UUID')).toBe('host-device-7');
    expect(headers.get('EBT-Account-ID')).toBe('EBT-4417-2209');
  });

  it('keeps the saved device id when the host gives one fetch cannot send, and the call is made', async () => {
    const { started, headers } = await signInHeaders({ state: savedState({}), deviceId: 'Pixel 7 – José' });
    expect(started.needsRegistration).toBe(true);
    expect(started.initial.deviceUUID).toBe('device-1');
    expect(headers.get('Device-UUID')).toBe('device-1');
  });

  it('links no EBT account when the host gives an id the server would refuse at /register', async () => {
    const { started, headers } = await signInHeaders({ state: savedState({ ebtAccountId: 'EBT-1' }), ebtaccountId: 'EBT 4417; x' });
    expect(started.initial.ebtAccountId).toBeNull();
    expect(headers.has('EBT-Account-ID')).toBe(false);
  });

  it("says the app's language (Accept-Language), as every call does", async () => {
    const { headers } = await signInHeaders({ state: savedState({ locale: 'es' }) });
    expect(headers.get('Accept-Language')).toBe('es');
  });

  it("gives up after the client's 120 s: the request is aborted and start-up goes on (as with any call with no answer) instead of waiting for ever", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        signal = init.signal ?? undefined;
        return new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }),
    );
    try {
      const starting = start(companionHost({ uuid: 'companion-user-5', accessToken: 'companion-token', state: savedState({}) }));
      await vi.advanceTimersByTimeAsync(119_999);
      expect(signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(signal?.aborted).toBe(true);
      await starting;
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });

  it('keeps the saved EBT account id when the host has none', async () => {
    const { started } = await signInHeaders({ state: savedState({ ebtAccountId: 'EBT-1' }), ebtaccountId: null });
    expect(started.initial.ebtAccountId).toBe('EBT-1');
  });
});

describe('what embedded start-up never takes or gives', () => {
  it('takes no token from the host’s saved state (the app saves none there)', async () => {
    const { initial } = await start(companionHost({ state: savedState({ accessToken: 'access-from-host', refreshToken: 'refresh-from-host' }), uuid: null }));
    expect(initial.accessToken).toBeNull();
    expect(initial.refreshToken).toBeNull();
  });

  it('saves nothing to a host that stopped answering during start-up: its saved draft stays', async () => {
    const self = companionHost({ state: savedState({ registrationDraft: savedDraft(3) }), uuid: null, deviceId: 42 as unknown as string });
    const { saveState } = await start(self);
    saveState({ ...savedState({}), registrationDraft: null } as never);
    const told = (self as unknown as { parent: { postMessage: ReturnType<typeof vi.fn> } }).parent.postMessage.mock.calls.map(([message]) => (message as QueryMessage).type);
    expect(told).toContain('state.load');
    expect(told).not.toContain('state.save');
  });
});
