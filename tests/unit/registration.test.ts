/**
 * The registration chart's logic on its own: where it starts and which steps the route may move it
 * to, the profile pre-fill, the submit normalisation and payload, the draft it lets be saved, and
 * how the server's field errors find their step.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { StatusAnswer } from '../../contract/shared/answers.ts';
import { normaliseZip } from '../../contract/identity/rules.ts';
import { ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { registrationSchema, ServerFieldError } from '../../contract/validation.ts';
import {
  initialContextOf,
  registrationMachine,
  stepOfState,
  type RegistrationInput,
} from '../../machines/identity/registration.ts';
import { draftFrom, draftOf, type RegistrationDraft } from '../../machines/identity/registrationDraft.ts';
import { fieldProblems, normaliseDob, payloadOf, profileFieldsOf } from '../../machines/identity/registrationFieldRules.ts';
import { firstFailingStep, RegistrationProblem, serverFieldProblems } from '../../machines/identity/registrationProblems.ts';
import type { PhoneInUseAnswer, RegisterAnswer, RequestVerificationAnswer } from '../../contract/identity/types.ts';
import { dobInWords, maskDob, maskZip, routeStepOf } from '../../src/features/identity/masks.ts';
import { addressVerified, phoneDigits, phoneVerified, savedDraft } from '../support/registrationRuns.ts';

const input = (overrides: Partial<RegistrationInput> = {}): RegistrationInput => ({
  draft: null,
  requestedStep: 1,
  profile: null,
  providersUuid: null,
  ...overrides,
});

/** A live chart whose calls never answer unless a test says so. */
function start(overrides: Partial<RegistrationInput> = {}, answers: { verifyEmail?: number } = {}) {
  const never = <T,>() => new Promise<T>(() => {});
  return createActor(
    registrationMachine.provide({
      actors: {
        verifyEmail: fromPromise(async (): Promise<StatusAnswer> =>
          answers.verifyEmail === undefined ? never<StatusAnswer>() : { statusCode: answers.verifyEmail as StatusCode },
        ),
        phoneNumberInUse: fromPromise(() => never<PhoneInUseAnswer>()),
        requestVerification: fromPromise(() => never<StatusAnswer>()),
        verifyPhone: fromPromise(() => never<StatusAnswer>()),
        verifyAddress: fromPromise(() => never<StatusAnswer>()),
        register: fromPromise(() => never<RegisterAnswer>()),
      },
    }),
    { input: input(overrides) },
  ).start();
}

const step = (actor: ReturnType<typeof start>) => stepOfState(actor.getSnapshot());

/** A live chart at a step after the phone: restored at the phone, which is verified again first (the calls answered as a path would). */
function startAfterPhone(draft: RegistrationDraft, lead: readonly { type: string }[]) {
  const actor = start({ draft, requestedStep: draft.furthestStep });
  for (const event of lead) actor.send(event as never);
  return actor;
}
const startAtAddress = () => startAfterPhone(savedDraft(3), phoneVerified);
const startAtUnlockCode = () => startAfterPhone(savedDraft(4), addressVerified);

describe('where registration starts', () => {
  it('starts at step 1 without a draft, whatever step the route asks for', () => {
    expect(step(start())).toBe(1);
    expect(step(start({ requestedStep: 4 }))).toBe(1);
  });

  it('starts at the route step when the draft got that far, else at the furthest step reached', () => {
    expect(step(start({ draft: savedDraft(2), requestedStep: 1 }))).toBe(1);
    expect(step(start({ draft: savedDraft(2), requestedStep: 2 }))).toBe(2);
    expect(step(start({ draft: savedDraft(2), requestedStep: 5 }))).toBe(2);
    expect(step(start({ draft: savedDraft(2), requestedStep: 0 }))).toBe(1);
  });

  it('comes back at most to the phone, with the number and the later steps kept: the phone is verified again (its mfaToken is never saved)', () => {
    for (const reached of [3, 4, 5] as const) {
      for (const requestedStep of [2, 3, 4, 5]) {
        const actor = start({ draft: savedDraft(reached), requestedStep });
        expect(actor.getSnapshot().matches({ inputting: { phone: { editing: 'idle' } } })).toBe(true);
        expect(actor.getSnapshot().context).toMatchObject({ step: 2, furthestStep: 2, verifiedPhone: null, mfaToken: null });
        expect(actor.getSnapshot().context.form).toMatchObject({ phone: phoneDigits, firstName: 'Ana', street1: reached > 3 ? '12 Elm St' : '' });
        // The steps after the phone are not open until it is verified again.
        actor.send({ type: 'user.goToStep', step: 3 });
        expect(step(actor)).toBe(2);
      }
    }
    // A draft saved before the token was left out: the token is not taken from it.
    const older = { ...savedDraft(4), verifiedPhone: phoneDigits, mfaToken: 'mfa-saved' } as RegistrationDraft;
    expect(initialContextOf(input({ draft: older, requestedStep: 4 }))).toMatchObject({ step: 2, furthestStep: 2, verifiedPhone: null, mfaToken: null });
  });

  it('verified again, goes on to the address the draft kept, then as far as the steps are done', () => {
    const actor = startAtAddress();
    expect(step(actor)).toBe(3);
    expect(actor.getSnapshot().context).toMatchObject({ verifiedPhone: phoneDigits, mfaToken: 'mfa-new', furthestStep: 3 });
    expect(startAtUnlockCode().getSnapshot().context).toMatchObject({ step: 4, furthestStep: 4 });
  });
});

describe('the route step (user.goToStep)', () => {
  it('moves back to any earlier step and forward again up to the furthest step reached', () => {
    const actor = startAtUnlockCode();
    actor.send({ type: 'user.goToStep', step: 1 });
    expect(step(actor)).toBe(1);
    actor.send({ type: 'user.goToStep', step: 3 });
    expect(step(actor)).toBe(3);
    actor.send({ type: 'user.goToStep', step: 4 });
    expect(step(actor)).toBe(4);
  });

  it('refuses steps not reached yet, and anything that is not a step', () => {
    const actor = start({ draft: savedDraft(2), requestedStep: 2 });
    for (const refused of [3, 4, 5, 0, 6, Number.NaN]) {
      actor.send({ type: 'user.goToStep', step: refused });
      expect(step(actor)).toBe(2);
    }
  });

  it('stays (without starting the step over) when asked for the step it shows', () => {
    const actor = start({ draft: savedDraft(2), requestedStep: 1 });
    actor.send({ type: 'user.submitPersonalInfo', firstName: 'Ana', middleName: '', lastName: 'Lopez', dob: '01/05/1990', ssn: '123456789', email: 'ana@example.test' });
    expect(actor.getSnapshot().matches({ inputting: { personalInfo: 'checkingEmail' } })).toBe(true);
    actor.send({ type: 'user.goToStep', step: 1 });
    expect(actor.getSnapshot().matches({ inputting: { personalInfo: 'checkingEmail' } })).toBe(true);
  });

  it('is ignored while the application is being sent', async () => {
    const actor = start({ draft: savedDraft(4), requestedStep: 4 }, { verifyEmail: 3 });
    for (const event of addressVerified) actor.send(event as never);
    actor.send({ type: 'user.submitUnlockCode', unlockCode: '2580', unlockCodeConfirmation: '2580' });
    actor.send({ type: 'user.submitAgreements', esign: true, terms: true, cardholder3: true });
    // The SSN is never saved: the chart asks for it again, then goes straight back to the agreements.
    expect(actor.getSnapshot().matches({ inputting: { personalInfo: { editing: 'ssnNeeded' } } })).toBe(true);
    actor.send({ type: 'user.submitPersonalInfo', firstName: 'Ana', middleName: '', lastName: 'Lopez', dob: '01/05/1990', ssn: '123456789', email: 'ana@example.test' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(step(actor)).toBe(5);
    actor.send({ type: 'user.submitAgreements', esign: true, terms: true, cardholder3: true });
    expect(actor.getSnapshot().matches('processing')).toBe(true);
    actor.send({ type: 'user.goToStep', step: 1 });
    expect(actor.getSnapshot().matches('processing')).toBe(true);
  });

  it('a new phone number must be verified again before the later steps', () => {
    const actor = startAtUnlockCode();
    actor.send({ type: 'user.goToStep', step: 2 });
    actor.send({ type: 'user.submitPhone', phone: '(303) 201-0100' });
    expect(actor.getSnapshot().context).toMatchObject({ verifiedPhone: null, mfaToken: null, furthestStep: 2 });
    actor.send({ type: 'user.goToStep', step: 3 });
    expect(step(actor)).toBe(2);
  });

  it('after too many codes only that number waits: it is ignored, another is checked and sent at once', async () => {
    const sentTo: string[] = [];
    const actor = createActor(
      registrationMachine.provide({
        actors: {
          phoneNumberInUse: fromPromise(async (): Promise<PhoneInUseAnswer> => ({ statusCode: StatusCode.SUCCESS, inUse: false })),
          requestVerification: fromPromise(async ({ input }: { input: { phone: string } }): Promise<RequestVerificationAnswer> => {
            sentTo.push(input.phone);
            return sentTo.length === 1 ? { statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: 600 } : { statusCode: StatusCode.SUCCESS };
          }),
        },
      }),
      { input: input({ draft: savedDraft(2), requestedStep: 2 }) },
    ).start();
    actor.send({ type: 'user.submitPhone', phone: '(202) 201-0143' });
    await waitFor(actor, (s) => s.matches({ inputting: { phone: 'waiting' } }));
    actor.send({ type: 'user.submitPhone', phone: '202-201-0143' });
    expect(actor.getSnapshot().matches({ inputting: { phone: 'waiting' } })).toBe(true);
    actor.send({ type: 'user.submitPhone', phone: '(202) 201-0188' });
    await waitFor(actor, (s) => s.matches({ inputting: { phone: 'enteringCode' } }));
    expect(sentTo).toEqual(['2022010143', '2022010188']);
    expect(actor.getSnapshot().context).toMatchObject({ codeSentTo: '2022010188', retryAt: null });
  });

  it('the verified number goes straight on to the address', () => {
    const actor = startAtAddress();
    actor.send({ type: 'user.goToStep', step: 2 });
    actor.send({ type: 'user.submitPhone', phone: '202-201-0143' });
    expect(step(actor)).toBe(3);
    expect(actor.getSnapshot().context.mfaToken).toBe('mfa-new');
  });
});

describe('routeStepOf', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    ['1', 1],
    ['5', 5],
    ['6', 0],
    ['0', 0],
    ['2x', 0],
    ['02', 0],
  ])('reads %j as %i', (param, expected) => {
    expect(routeStepOf(param)).toBe(expected);
  });
});

describe('profile pre-fill', () => {
  it('fills the fields the profile names, keeps the draft first, and never the SSN', () => {
    const profile = JSON.stringify({
      firstName: ' Ana ',
      lastName: 'López',
      middleName: 'María',
      email: 'ana@example.test',
      phone: 2022010143,
      dob: '1990-01-05',
      street1: '12 Elm St',
      street2: 'Apt 4',
      city: 'Columbus',
      state: 'oh',
      zip: '43004',
      ssn: '123-45-6789',
      unlockCode: '2580',
      isAdmin: true,
    });
    expect(profileFieldsOf(profile)).toEqual({
      firstName: 'Ana',
      lastName: 'López',
      middleName: 'María',
      email: 'ana@example.test',
      phone: '2022010143',
      dob: '01/05/1990',
      street1: '12 Elm St',
      street2: 'Apt 4',
      city: 'Columbus',
      state: 'OH',
      zip: '43004',
    });
    const context = initialContextOf(input({ profile, draft: { ...savedDraft(1), firstName: 'Anabel' } }));
    expect(context.form).toMatchObject({ firstName: 'Anabel', lastName: 'López-Pérez', city: 'Columbus', ssn: '', unlockCode: '' });
    // The profile is sent as given.
    expect(context.profile).toBe(profile);
  });

  it.each([
    ['malformed JSON', '{"firstName":'],
    ['a JSON array', '["Ana"]'],
    ['a JSON string', '"Ana"'],
    ['null', 'null'],
    ['nothing', null],
  ])('ignores %s', (_name, profile) => {
    expect(profileFieldsOf(profile)).toEqual({});
    expect(initialContextOf(input({ profile })).form.firstName).toBe('');
  });

  it('ignores fields of the wrong type, empty ones and unknown state codes', () => {
    expect(profileFieldsOf(JSON.stringify({ firstName: { x: 1 }, lastName: '', state: 'DC', city: ['x'], email: true }))).toEqual({});
  });

  it('ignores (and does not send) a profile longer than 4000 characters', () => {
    const profile = JSON.stringify({ firstName: 'Ana', note: 'x'.repeat(4000) });
    expect(profileFieldsOf(profile)).toEqual({});
    expect(initialContextOf(input({ profile })).profile).toBeNull();
  });
});

describe('normalisation and the payload (spec §5)', () => {
  it.each([
    ['1/5/1990', '01/05/1990'],
    ['01-05-1990', '01/05/1990'],
    ['01051990', '01/05/1990'],
    ['1990-1-5', '01/05/1990'],
    [' 12/31/1999 ', '12/31/1999'],
    ['May 5 1990', 'May 5 1990'],
  ])('dob %j → %j', (typed, normal) => {
    expect(normaliseDob(typed)).toBe(normal);
  });

  it.each([
    ['43004', '43004'],
    ['43004-', '43004'],
    ['430041234', '43004-1234'],
    ['43004-1234', '43004-1234'],
    [' 4300 ', '4300'],
  ])('zip %j → %j', (typed, normal) => {
    expect(normaliseZip(typed)).toBe(normal);
  });

  it('trims names and email, keeps only the digits of phone and SSN, formats the dob', () => {
    const context = initialContextOf(input({ providersUuid: 'companion-1', profile: '{"firstName":"Ana"}' }));
    const payload = payloadOf({
      ...context,
      form: {
        ...context.form,
        firstName: ' Ana ',
        middleName: ' María ',
        lastName: ' López ',
        dob: '1/5/1990',
        ssn: '123-45-6789',
        email: ' ana@example.test ',
        phone: '(202) 201-0143',
        street1: ' 12 Elm St ',
        street2: ' Apt 4 ',
        city: ' Columbus ',
        state: 'oh',
        zip: '430041234',
        unlockCode: '2580',
        legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
      },
      mfaToken: 'mfa-1',
    });
    expect(payload).toEqual({
      firstName: 'Ana',
      middleName: 'María',
      lastName: 'López',
      dob: '01/05/1990',
      ssn: '123456789',
      email: 'ana@example.test',
      phone: '2022010143',
      mfaToken: 'mfa-1',
      addressLegal: { street1: '12 Elm St', street2: 'Apt 4', city: 'Columbus', state: 'OH', zip: '43004-1234' },
      unlockCode: '2580',
      legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
      providersUuid: 'companion-1',
      profile: '{"firstName":"Ana"}',
    });
  });

  it('sends the verified phone, and an empty mfaToken when there is none (the server says which step)', () => {
    const context = startAtAddress().getSnapshot().context;
    expect(payloadOf({ ...context, form: { ...context.form, phone: '999' } })).toMatchObject({ phone: '2022010143', mfaToken: 'mfa-new' });
    expect(payloadOf(initialContextOf(input())).mfaToken).toBe('');
  });
});

describe("the 18th birthday: the form judges it by the card API's today", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });
  /** What POST /register's schema says of this date of birth at the faked time. */
  const serverSays = (dob: string) =>
    registrationSchema.validateAt('dob', { dob }).then(
      () => null,
      (error: { message: string }) => error.message,
    );

  // 07:00 UTC on 15 June is 03:00 on 15 June on a phone in New York but still 14 June in Hawaii
  // (UTC−10): the birthday has begun on the phone, not in every state, so POST /register refuses it.
  it('refuses someone born 06/15/2008 at 2026-06-15T07:00Z, as the server does', async () => {
    vi.stubEnv('TZ', 'America/New_York');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-06-15T07:00:00Z') });
    expect(fieldProblems(['dob'], { dob: '06/15/2008' })).toEqual({ dob: ValidationMessage.dobUnder18 });
    expect(await serverSays('06/15/2008')).toBe(ValidationMessage.dobUnder18);
  });
  it('accepts them once the birthday has begun in Hawaii (10:00Z), as the server does', async () => {
    vi.stubEnv('TZ', 'America/New_York');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-06-15T10:00:00Z') });
    expect(fieldProblems(['dob'], { dob: '06/15/2008' })).toEqual({});
    expect(await serverSays('06/15/2008')).toBeNull();
  });
});

describe('the draft', () => {
  it('holds every typed field but the SSN and the unlock code, and no mfaToken', () => {
    const context = initialContextOf(input({ draft: savedDraft(4), profile: '{"ssn":"123-45-6789"}' }));
    const mfaToken = 'Xq3v9J0kL2mN4pR6sT8uW0yA1bC3dE5fG7hI9jK1lM2';
    const typed = {
      ...context,
      furthestStep: 4 as const,
      verifiedPhone: phoneDigits,
      mfaToken,
      form: { ...context.form, ssn: '123456789', unlockCode: '2580', unlockCodeConfirmation: '2580' },
    };
    const draft = draftOf(typed);
    expect(draft).toEqual(savedDraft(4));
    expect(JSON.stringify(draft)).not.toMatch(/ssn|123456789|123-45-6789|unlockCode|2580|profile|mfaToken|verifiedPhone/i);
    expect(JSON.stringify(draft)).not.toContain(mfaToken);
  });

  it('is saved with no mfaToken at every step, from the phone verified to the application sent', () => {
    const saved: unknown[] = [];
    const actor = createActor(
      registrationMachine.provide({ actions: { saveDraft: (_, draft) => void saved.push(draft) } }),
      { input: input({ draft: savedDraft(4), requestedStep: 4 }) },
    ).start();
    for (const event of addressVerified) actor.send(event as never);
    actor.send({ type: 'user.submitUnlockCode', unlockCode: '2580', unlockCodeConfirmation: '2580' });
    actor.send({ type: 'user.submitAgreements', esign: true, terms: true, cardholder3: false });
    expect(actor.getSnapshot().context.mfaToken).toBe('mfa-new');
    expect(saved.length).toBeGreaterThan(4);
    for (const draft of saved) expect(JSON.stringify(draft)).not.toMatch(/mfa-new|mfaToken|verifiedPhone/);
  });

  it('is read back defensively', () => {
    expect(draftFrom(null)).toBeNull();
    expect(draftFrom('draft')).toBeNull();
    expect(draftFrom([1])).toBeNull();
    const polluted = { ...savedDraft(3), ssn: '123456789', furthestStep: '3', mfaToken: 7, codeSentTo: '555', legal: { esign: 'agreed', terms: 'yes' } };
    expect(draftFrom(polluted)).toEqual({
      ...savedDraft(3),
      furthestStep: 1,
      codeSentTo: null,
      legal: { esign: 'agreed', terms: null, cardholder3: null },
    } satisfies RegistrationDraft);
  });
});

describe("the server's field errors", () => {
  it('land on the form field that shows them', () => {
    expect(
      serverFieldProblems({
        firstName: 'name.invalid',
        'addressLegal.zip': 'zip.invalid',
        addressLegal: 'address.304',
        'addressLegal.street2': 'address.301',
        legal: ServerFieldError.legalRequired,
        'legal.terms': ServerFieldError.legalRequired,
        mfaToken: 'anything',
        phone: ServerFieldError.phoneUnverified,
        providersUuid: 'x',
      }),
    ).toEqual({
      firstName: 'name.invalid',
      zip: 'zip.invalid',
      street1: 'address.304',
      street2: 'address.301',
      esign: 'legal.required',
      terms: 'legal.required',
      phone: 'phone.unverified',
    });
  });

  it('use the same keys as the card API', () => {
    expect(RegistrationProblem.phoneUnverified).toBe(ServerFieldError.phoneUnverified);
    expect(RegistrationProblem.legalRequired).toBe(ServerFieldError.legalRequired);
  });

  it('send the user to the step of the first failing field, in the order of the steps', () => {
    expect(firstFailingStep(serverFieldProblems({ 'addressLegal.zip': 'zip.invalid', dob: 'dob.under18' }))).toBe(1);
    expect(firstFailingStep(serverFieldProblems({ unlockCode: 'unlockCode.obvious', phone: 'phone.unverified' }))).toBe(2);
    expect(firstFailingStep(serverFieldProblems({ legal: 'legal.required' }))).toBe(5);
    expect(firstFailingStep(serverFieldProblems({ profile: 'tooLong' }))).toBeNull();
    expect(firstFailingStep({})).toBeNull();
  });
});

describe('input masks', () => {
  it.each([
    ['43004', '43004'],
    ['430041', '43004-1'],
    ['43004-1234', '43004-1234'],
    ['43004-12345', '43004-1234'],
    ['4a3b0', '430'],
  ])('zip %j shows as %j', (typed, shown) => {
    expect(maskZip(typed)).toBe(shown);
  });

  it.each([
    ['0', '0'],
    ['01', '01'],
    ['011', '01/1'],
    ['01/15/1990', '01/15/1990'],
    ['01/151', '01/15/1'],
    ['01151990', '01/15/1990'],
    ['1/5/1990', '1/5/1990'],
    ['01/15/19901', '01/15/1990'],
    ['ab12', '12'],
    // Pasted or autofilled whole, with other separators: read in their own order.
    ['1990-01-15', '01/15/1990'],
    ['1990-1-5', '01/05/1990'],
    ['1-5-1990', '01/05/1990'],
    ['01.15.1990', '01/15/1990'],
    // Typed digit by digit with dashes, before the date is whole: the digits as typed.
    ['01-15', '01/15'],
  ])('dob %j shows as %j', (typed, shown) => {
    expect(maskDob(typed)).toBe(shown);
  });

  // Read back in words, so a day typed first (5 March as 05/03) is seen as May 3 before it is sent.
  it.each([
    ['05/03/1990', 'en', 'May 3, 1990'],
    ['05/03/1990', 'es', '3 de mayo de 1990'],
    ['5/3/1990', 'es', '3 de mayo de 1990'],
    ['02/29/2008', 'en', 'Feb 29, 2008'],
    ['02/29/2007', 'en', null],
    ['02/30/1990', 'es', null],
    ['13/05/1990', 'es', null],
    ['05/03/199', 'en', null],
    ['01/01/0001', 'en', null],
    ['12/31/1899', 'en', null],
    ['01/01/2999', 'en', null],
  ] as const)('dob %j reads as %j: %j', (typed, locale, words) => {
    expect(dobInWords(typed, locale)).toBe(words);
  });
});
