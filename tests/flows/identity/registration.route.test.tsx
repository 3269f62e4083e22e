/**
 * Registration through the real router and session: the route's step and the browser's history, a
 * reload mid-flow, the profile query, what is persisted (never the SSN), and the failed-registration
 * marker. The chart's own paths are in registration.paths.test.tsx.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { failedRegistrationMarker, type SessionInput } from '../../../machines/session/session.ts';
import { activateLocale } from '../../../src/shared/i18n/locale.ts';
import { createStateSaver, localStorageWriter, restoreState, type PersistedState } from '../../../src/app/persistence.ts';
import { savedDraft } from '../../support/registrationRuns.ts';
import { recordingHost, renderApp, signedOut } from '../../support/renderApp.tsx';
import { findPhoneSentence } from '../../support/textedCodeForm.ts';

type App = Awaited<ReturnType<typeof renderApp>>;

const inHost = () => ({ host: recordingHost({ embedded: true, providersUuid: 'companion-user-1' }).host });
const withDraft = (draft: SessionInput['registrationDraft']): SessionInput => ({ ...signedOut, registrationDraft: draft });
const pathname = (app: App) => app.router.state.location.pathname;

afterEach(async () => {
  await activateLocale('en');
});

async function completePersonalInfo(app: App, fields: { ssn?: string } = {}) {
  await screen.findByRole('heading', { name: 'Tell us about yourself' });
  const type = async (label: string, value: string) => {
    const input = screen.getByLabelText(label);
    await app.user.clear(input);
    await app.user.type(input, value);
  };
  await type('First name', 'Ana');
  await type('Last name', 'López');
  await type('Date of birth (MM/DD/YYYY)', '01051990');
  await type('Social Security number', fields.ssn ?? '123-45-6789');
  await type('Email', 'ana@example.test');
  await app.user.click(screen.getByRole('button', { name: 'Continue' }));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/verify/email')).toBe(true));
  app.cardApi.answer('/api/v1/verify/email', { statusCode: 3 }, 404);
  await screen.findByRole('heading', { name: 'Verify your phone' });
}

describe('the route step and the browser history', () => {
  it('a finished step adds a history entry, so Back and Forward move through the steps', async () => {
    const app = await renderApp('/register', signedOut, inHost());
    await completePersonalInfo(app);
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));

    app.router.history.back();
    expect(await screen.findByRole('heading', { name: 'Tell us about yourself' })).toBeTruthy();
    expect(pathname(app)).toBe('/register');
    // What was typed is still there (the SSN too: it stays in memory, it is only never saved).
    expect((screen.getByLabelText('Date of birth (MM/DD/YYYY)') as HTMLInputElement).value).toBe('01/05/1990');
    expect((screen.getByLabelText('Social Security number') as HTMLInputElement).value).toBe('123-45-6789');

    app.router.history.forward();
    expect(await screen.findByRole('heading', { name: 'Verify your phone' })).toBeTruthy();
    expect(screen.getByText('Step 2 of 5')).toBeTruthy();
  });

  it('a step not reached yet is refused: the URL is replaced by the step the chart shows', async () => {
    const app = await renderApp('/register/2', withDraft(savedDraft(2)), inHost());
    await screen.findByRole('heading', { name: 'Verify your phone' });
    const entries = app.router.history.length;
    await app.router.navigate({ to: '/register/{-$step}', params: { step: '4' } });
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));
    expect(screen.getByRole('heading', { name: 'Verify your phone' })).toBeTruthy();
    // The refused entry was replaced, not added to.
    expect(app.router.history.length).toBe(entries + 1);
    app.router.history.back();
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));
  });

  it('opening a later step than the draft reached starts at the furthest step reached', async () => {
    const app = await renderApp('/register/5', withDraft(savedDraft(2)), inHost());
    expect(await screen.findByRole('heading', { name: 'Verify your phone' })).toBeTruthy();
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));
  });

  it('a step param that is not a step is replaced', async () => {
    const app = await renderApp('/register/abc', signedOut, inHost());
    expect(await screen.findByRole('heading', { name: 'Tell us about yourself' })).toBeTruthy();
    await waitFor(() => expect(pathname(app)).toBe('/register/1'));
  });
});

const english = { send: 'Send code', digit: /^Digit \d of 6$/, verify: 'Verify', address: 'Your legal address' };
const spanish = { send: 'Enviar código', digit: /^Dígito \d de 6$/, verify: 'Verificar', address: 'Su dirección legal' };

/** Sends the phone shown, answers its checks and types the texted code, which /verify-phone accepts with `mfaToken`. */
async function verifyPhone(app: App, mfaToken: string, names = english) {
  await app.user.click(await screen.findByRole('button', { name: names.send }));
  for (const [path, body] of [['/api/v1/phone-number-in-use', { statusCode: 0, inUse: false }], ['/api/v1/request-verification', { statusCode: 0 }]] as const) {
    await waitFor(() => expect(app.cardApi.isWaiting(path)).toBe(true));
    app.cardApi.answer(path, body);
  }
  const boxes = await screen.findAllByLabelText(names.digit);
  await app.user.type(boxes[0]!, '123456');
  await app.user.click(screen.getByRole('button', { name: names.verify }));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/verify-phone')).toBe(true));
  app.cardApi.answer('/api/v1/verify-phone', { statusCode: 0, mfaToken });
  await screen.findByRole('heading', { name: names.address });
}

describe('a reload mid-flow', () => {
  it('after the phone was verified, comes back to the phone with the number kept (its proof is never saved); verified again, what was typed follows', async () => {
    const app = await renderApp('/register/3', withDraft(savedDraft(5)), inHost());
    expect(await screen.findByRole('heading', { name: 'Verify your phone' })).toBeTruthy();
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));
    expect((screen.getByLabelText('Mobile phone number') as HTMLInputElement).value).toBe('2022010143');
    expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
    // Why the applicant is back here, who had gone further; not for another number typed instead.
    const again = 'For your security, please verify your phone again to go on.';
    expect(screen.getByText(again)).toBeTruthy();
    const phoneField = screen.getByLabelText('Mobile phone number');
    await app.user.clear(phoneField);
    await app.user.type(phoneField, '5592013344');
    expect(screen.queryByText(again)).toBeNull();
    await app.user.clear(phoneField);
    await app.user.type(phoneField, '2022010143');
    expect(screen.getByText(again)).toBeTruthy();
    // The same number with its +1 country code (as a contact's copy gives it) is the same number.
    await app.user.clear(phoneField);
    await app.user.type(phoneField, '+1 (202) 201-0143');
    expect(screen.getByText(again)).toBeTruthy();
    // The later steps are not open until the phone is verified again.
    await app.router.navigate({ to: '/register/{-$step}', params: { step: '4' } });
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));

    await verifyPhone(app, 'mfa-verified-again');
    const sent = (path: string) => app.cardApi.requests.filter((request) => request.path === path).map((request) => JSON.parse(String(request.init?.body)).phone);
    expect([...sent('/api/v1/request-verification'), ...sent('/api/v1/verify-phone')]).toEqual(['2022010143', '2022010143']);
    await waitFor(() => expect(pathname(app)).toBe('/register/3'));
    expect((screen.getByLabelText('Street address') as HTMLInputElement).value).toBe('12 Elm St');
    expect((screen.getByLabelText('State') as HTMLSelectElement).value).toBe('OH');
    expect((screen.getByLabelText('ZIP code') as HTMLInputElement).value).toBe('43004-1234');
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/verify-address')).toBe(true));
    app.cardApi.answer('/api/v1/verify-address', { statusCode: 0 });
    // The unlock code is never saved either: it is chosen again.
    expect(await screen.findByRole('heading', { name: 'Choose an unlock code' })).toBeTruthy();
    expect((screen.getByLabelText('Unlock code') as HTMLInputElement).value).toBe('');
  });

  it('keeps what is typed before the step is sent (never the SSN), so a reload shows it again', async () => {
    const app = await renderApp('/register', signedOut, inHost());
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    await app.user.type(screen.getByLabelText('First name'), 'Ana');
    await app.user.type(screen.getByLabelText('Social Security number'), '123-45-6789');
    await app.user.type(screen.getByLabelText('Email'), 'ana@example.test');
    await waitFor(() => expect(app.session.getSnapshot().context.registrationDraft?.email).toBe('ana@example.test'));
    const draft = app.session.getSnapshot().context.registrationDraft;
    expect(draft).toMatchObject({ furthestStep: 1, firstName: 'Ana', email: 'ana@example.test' });
    expect(JSON.stringify(draft)).not.toMatch(/123-45-6789|123456789|ssn/);
    cleanup();

    await renderApp('/register', withDraft(draft), inHost());
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ana');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ana@example.test');
    expect((screen.getByLabelText('Social Security number') as HTMLInputElement).value).toBe('');
  });

  it('while the texted code is read, a reload comes back to the code for that phone (the SSN is asked again at the end)', async () => {
    const app = await renderApp('/register/2', withDraft(savedDraft(2)), inHost());
    await screen.findByRole('heading', { name: 'Verify your phone' });
    // Not come back from a later step: nothing to verify again.
    expect(screen.queryByText('For your security, please verify your phone again to go on.')).toBeNull();
    await app.user.type(screen.getByLabelText('Mobile phone number'), '2022010143');
    await app.user.click(screen.getByRole('button', { name: 'Send code' }));
    for (const [path, body] of [['/api/v1/phone-number-in-use', { statusCode: 0, inUse: false }], ['/api/v1/request-verification', { statusCode: 0 }]] as const) {
      await waitFor(() => expect(app.cardApi.isWaiting(path)).toBe(true));
      app.cardApi.answer(path, body);
    }
    await screen.findByRole('group', { name: 'Texted code' });
    const draft = app.session.getSnapshot().context.registrationDraft;
    expect(draft).toMatchObject({ furthestStep: 2, phone: '2022010143', codeSentTo: '2022010143' });
    cleanup();

    const reloaded = await renderApp('/register/2', withDraft(draft), inHost());
    expect(await screen.findByRole('group', { name: 'Texted code' })).toBeTruthy();
    await findPhoneSentence('We texted a 6-digit code to (202) 201-0143.', '(202) 201-0143');
    expect(pathname(reloaded)).toBe('/register/2');
    // No new code was asked for: the one on the phone still works.
    expect(reloaded.cardApi.requests.filter((request) => request.path === '/api/v1/request-verification')).toHaveLength(0);
  });

  it('keeps the draft in core state as each step is submitted', async () => {
    const app = await renderApp('/register', signedOut, inHost());
    await completePersonalInfo(app);
    expect(app.session.getSnapshot().context.registrationDraft).toMatchObject({
      furthestStep: 2,
      firstName: 'Ana',
      lastName: 'López',
      dob: '01/05/1990',
      email: 'ana@example.test',
    });
  });
});

describe('the SSN is never persisted', () => {
  /** On the first step: the SSN typed, then a middle name, and the save made while typing them (300 ms after the last key). */
  async function typeThenAwaitItsSave(app: App, lastSaved: () => string | undefined) {
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    await app.user.type(screen.getByLabelText('Social Security number'), '987-65-4321');
    await app.user.type(screen.getByLabelText('Middle name (optional)'), 'Quinn');
    await waitFor(() => expect(lastSaved()).toContain('Quinn'));
  }

  it.each([false, true])('embedded %s: nothing saved ever holds it, through submitting, errors and going back', async (embedded) => {
    const writes: string[] = [];
    const app = await renderApp('/register', signedOut, inHost());
    const save = createStateSaver((state: PersistedState) => void writes.push(JSON.stringify(state)), { embedded });
    app.session.subscribe((snapshot) => save(snapshot.context));
    // An invalid submit first (the SSN is kept in the chart, the others are checked).
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    await app.user.type(screen.getByLabelText('Social Security number'), '987-65-4321');
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('First name is required.');
    await completePersonalInfo(app);
    app.router.history.back();
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    // What is saved while typing is checked as well: the SSN typed again, then the middle name, whose save is awaited.
    await typeThenAwaitItsSave(app, () => writes.at(-1));
    expect(writes.length).toBeGreaterThan(0);
    for (const written of writes) expect(written).not.toMatch(/123456789|123-45-6789|987654321|987-65-4321|"ssn"/);
    // And what was saved restores the draft without it.
    const restored = restoreState(writes.at(-1)!, 'en');
    expect(restored.registrationDraft).toMatchObject({ firstName: 'Ana', furthestStep: 2 });
  });

  it('standalone storage (localStorage) does not get it either', async () => {
    const stored = new Map<string, string>();
    const app = await renderApp('/register', signedOut, inHost());
    const save = createStateSaver(localStorageWriter({ getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) }), { embedded: false });
    app.session.subscribe((snapshot) => save(snapshot.context));
    await completePersonalInfo(app, { ssn: '123 45 6789' });
    app.router.history.back();
    // What is saved while typing is checked as well: the SSN typed again, then the middle name, whose save is awaited.
    await typeThenAwaitItsSave(app, () => [...stored.values()].join());
    expect([...stored.values()].join()).not.toMatch(/123456789|123 45 6789/);
    expect([...stored.values()].join()).toContain('ana@example.test');
  });
});

describe("the phone's proof (mfaToken) is never persisted", () => {
  // 43 characters, as the card API's: it proves the phone to POST /register for 30 minutes.
  const mfaToken = 'Xq3v9J0kL2mN4pR6sT8uW0yA1bC3dE5fG7hI9jK1lM2';

  it.each([false, true])('embedded %s: no saved state ever holds it; after a reload the phone is verified again', async (embedded) => {
    const writes: string[] = [];
    const stored = new Map<string, string>();
    const write = embedded
      ? (state: PersistedState) => void writes.push(JSON.stringify(state))
      : localStorageWriter({ getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void (stored.set(key, value), writes.push(value)) });
    const app = await renderApp('/register', signedOut, inHost());
    const save = createStateSaver(write, { embedded });
    app.session.subscribe((snapshot) => save(snapshot.context));
    await completePersonalInfo(app);
    await app.user.type(screen.getByLabelText('Mobile phone number'), '2022010143');
    await verifyPhone(app, mfaToken);
    // On to the address, typing in it (saved 300 ms after the last key) and back to the phone.
    await app.user.type(screen.getByLabelText('Street address'), '12 Elm St');
    await waitFor(() => expect(writes.at(-1)).toContain('12 Elm St'));
    app.router.history.back();
    await screen.findByRole('heading', { name: 'Verify your phone' });
    // In this page's memory the phone stays verified: the same number goes straight on.
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();

    expect(writes.length).toBeGreaterThan(0);
    for (const written of writes) expect(written).not.toMatch(new RegExp(`${mfaToken}|mfaToken|verifiedPhone`));
    const restored = restoreState(writes.at(-1)!, 'en');
    expect(restored.registrationDraft).toMatchObject({ furthestStep: 3, phone: '2022010143', street1: '12 Elm St' });
    cleanup();

    const reloaded = await renderApp('/register/3', withDraft(restored.registrationDraft), inHost());
    expect(await screen.findByRole('heading', { name: 'Verify your phone' })).toBeTruthy();
    await waitFor(() => expect(pathname(reloaded)).toBe('/register/2'));
    expect((screen.getByLabelText('Mobile phone number') as HTMLInputElement).value).toBe('2022010143');
    expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
  });
});

describe('the profile query', () => {
  it('pre-fills the fields it names (never the SSN), and stays in the URL from step to step', async () => {
    const profile = JSON.stringify({ firstName: 'Ana', lastName: 'López', email: 'ana@example.test', dob: '1990-01-05', ssn: '123-45-6789', phone: '2022010143' });
    const app = await renderApp(`/register?profile=${encodeURIComponent(profile)}`, signedOut, inHost());
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ana');
    expect((screen.getByLabelText('Date of birth (MM/DD/YYYY)') as HTMLInputElement).value).toBe('01/05/1990');
    expect((screen.getByLabelText('Social Security number') as HTMLInputElement).value).toBe('');
    await completePersonalInfo(app);
    await waitFor(() => expect(pathname(app)).toBe('/register/2'));
    expect(app.router.state.location.search).toEqual({ profile: JSON.parse(profile) });
    expect((screen.getByLabelText('Mobile phone number') as HTMLInputElement).value).toBe('2022010143');
  });

  it('ignores a malformed profile', async () => {
    await renderApp('/register?profile=%7Bnot-json', signedOut, inHost());
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('');
  });
});

describe('after a denied or taken application (the failed-registration marker)', () => {
  const failed: SessionInput = { ...signedOut, refreshToken: failedRegistrationMarker };

  it('/register shows the failure, with a way to sign in', async () => {
    const app = await renderApp('/register/3', failed, inHost());
    expect(await screen.findByRole('heading', { name: 'Unfortunately, we could not accept your application.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin');
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(pathname(app)).toBe('/register/3');
    expect(app.cardApi.requests.filter((request) => request.path !== '/api/v1/experiments')).toEqual([]);
  });

  it('is no session: account screens go to sign-in, and sign-out is not offered', async () => {
    const app = await renderApp('/home', failed, inHost());
    await waitFor(() => expect(pathname(app)).toBe('/signin'));
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(app.session.getSnapshot().matches({ auth: 'signedOut' })).toBe(true);
  });

  it('unlock goes to sign-in too', async () => {
    const app = await renderApp('/unlock', failed, inHost());
    await waitFor(() => expect(pathname(app)).toBe('/signin'));
  });

  it("an account call is sent as a signed-out one's, not held for an unlock that cannot come", async () => {
    const app = await renderApp('/signin', failed, inHost());
    void app.services.api.getHome().catch(() => {});
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
    expect(new Headers(app.cardApi.requests.at(-1)?.init?.headers).has('Authorization')).toBe(false);
    expect(app.session.getSnapshot().context.refreshToken).toBe(failedRegistrationMarker);
  });
});

describe('registration in Spanish', () => {
  it('shows the steps in Spanish', async () => {
    await renderApp('/register', { ...signedOut, locale: 'es' }, inHost());
    expect(await screen.findByRole('heading', { name: 'Cuéntenos sobre usted' })).toBeTruthy();
    expect(screen.getByText('Paso 1 de 5')).toBeTruthy();
    expect(screen.getByLabelText('Número de Seguro Social')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeTruthy();
  });

  it('names the states in Spanish, in the order of their Spanish names, and keeps the saved one', async () => {
    const app = await renderApp('/register/3', { ...withDraft(savedDraft(5)), locale: 'es' }, inHost());
    // A reload comes back to the phone, verified again.
    await verifyPhone(app, 'mfa-new', spanish);
    const state = screen.getByLabelText('Estado') as HTMLSelectElement;
    const names = [...state.options].slice(1).map((option) => option.text);
    expect(names).toHaveLength(50);
    expect(names.slice(4, 11)).toEqual(['California', 'Carolina del Norte', 'Carolina del Sur', 'Colorado', 'Connecticut', 'Dakota del Norte', 'Dakota del Sur']);
    expect(names).toContain('Nueva York');
    expect(names).not.toContain('New York');
    // The value sent is the code, whatever the language (OH, from the draft).
    expect(state.value).toBe('OH');
    expect(state.selectedOptions[0]!.text).toBe('Ohio');
    expect([...state.options].find((option) => option.text === 'Pensilvania')?.value).toBe('PA');
  });
});
