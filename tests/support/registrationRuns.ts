/**
 * The registration chart's generated runs: each starts where a part of the flow begins (a saved
 * draft and the route's step, as the app restores them, then, for the steps after the phone, the phone
 * verified again: a reload never comes back past it) and lists the events of that part.
 * Together they reach every state and transition (tests/flows/registration.paths.test.tsx asserts it).
 */
import type { EventObject } from 'xstate';
import { registrationMachine, type RegistrationInput } from '../../machines/identity/registration.ts';
import type { RegistrationDraft } from '../../machines/identity/registrationDraft.ts';
import { generateListedPaths } from './listedPaths.ts';
import { serverWaitSeconds } from './replayClock.ts';

export const providersUuid = 'companion-user-1';
export const phone = '(202) 201-0143';
export const phoneDigits = '2022010143';
/** The number typed instead after the first had too many codes. */
export const otherPhone = '(202) 201-0188';

export const personalInfo = {
  type: 'user.submitPersonalInfo',
  firstName: ' Ana ',
  middleName: 'María',
  lastName: 'López-Pérez ',
  dob: '1/5/1990',
  ssn: '123-45-6789',
  email: ' ana@example.test ',
} as const;
const emptyPersonalInfo = { type: 'user.submitPersonalInfo', firstName: '', middleName: '', lastName: '', dob: '', ssn: '', email: '' } as const;
const address = { type: 'user.submitAddress', street1: ' 12 Elm St ', street2: 'Apt 4', city: 'Columbus', state: 'OH', zip: '43004-1234' } as const;
const emptyAddress = { type: 'user.submitAddress', street1: '', street2: '', city: '', state: '', zip: '' } as const;

const done = (actor: string, output: Record<string, unknown>) => ({ type: `xstate.done.actor.${actor}`, output });
const failed = (actor: string) => ({ type: `xstate.error.actor.${actor}`, error: new Error('no statusCode') });

/**
 * The phone verified again after a reload (the draft keeps no mfaToken, so the chart comes back at
 * most to the phone): the number typed, free, a code texted and accepted.
 */
export const phoneVerified = [
  { type: 'user.submitPhone', phone },
  done('phoneNumberInUse', { statusCode: 0, inUse: false }),
  done('requestVerification', { statusCode: 0 }),
  { type: 'user.submitCode', code: '123456' },
  done('verifyPhone', { statusCode: 0, mfaToken: 'mfa-new' }),
];
/** Then the address kept in the draft, sent and accepted. */
export const addressVerified = [...phoneVerified, address, done('verifyAddress', { statusCode: 0 })];

/** What was typed before, as the app keeps it (no SSN, no unlock code, no mfaToken). */
export const savedDraft = (furthestStep: RegistrationDraft['furthestStep']): RegistrationDraft => ({
  furthestStep,
  firstName: 'Ana',
  middleName: 'María',
  lastName: 'López-Pérez',
  dob: '01/05/1990',
  email: 'ana@example.test',
  phone: furthestStep > 2 ? phoneDigits : '',
  codeSentTo: null,
  street1: furthestStep > 3 ? '12 Elm St' : '',
  street2: furthestStep > 3 ? 'Apt 4' : '',
  city: furthestStep > 3 ? 'Columbus' : '',
  state: furthestStep > 3 ? 'OH' : '',
  zip: furthestStep > 3 ? '43004-1234' : '',
  legal: { esign: null, terms: null, cardholder3: null },
});

const inputAt = (draft: RegistrationDraft | null, requestedStep: number): RegistrationInput => ({
  draft,
  requestedStep,
  profile: null,
  providersUuid,
});

/**
 * Each run: its name, the route it starts on, the draft it restores, the steps that lead where its
 * part begins (`through`, the same in each of its paths), and the chart's paths.
 */
export function registrationRuns() {
  type Event = EventObject & Record<string, unknown>;
  const runs: { name: string; route: string; draft: RegistrationDraft | null; through?: readonly Event[]; events: readonly Event[] }[] = [
    {
      name: 'personal info',
      route: '/register',
      draft: null,
      events: [
        personalInfo,
        emptyPersonalInfo,
        done('verifyEmail', { statusCode: 0 }),
        done('verifyEmail', { statusCode: 3 }),
        done('verifyEmail', { statusCode: 5 }),
        done('verifyEmail', { statusCode: 201, retryAfterSeconds: 300 }),
        failed('verifyEmail'),
      ],
    },
    {
      name: 'phone number',
      route: '/register/2',
      draft: savedDraft(2),
      events: [
        { type: 'user.submitPhone', phone },
        { type: 'user.submitPhone', phone: '123' },
        done('phoneNumberInUse', { statusCode: 0, inUse: true }),
        done('phoneNumberInUse', { statusCode: 0, inUse: false }),
        done('phoneNumberInUse', { statusCode: 5 }),
        failed('phoneNumberInUse'),
        done('requestVerification', { statusCode: 0 }),
        done('requestVerification', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
        done('requestVerification', { statusCode: 202 }),
        done('requestVerification', { statusCode: 203 }),
        done('requestVerification', { statusCode: 204 }),
        done('requestVerification', { statusCode: 5 }),
        failed('requestVerification'),
        { type: 'xstate.after.untilRetry.registration.inputting.phone.waiting' },
      ],
    },
    {
      // Apart from the run above: one more editing substate there multiplies its simple paths.
      name: 'phone lookups limited',
      route: '/register/2',
      draft: savedDraft(2),
      events: [{ type: 'user.submitPhone', phone }, done('phoneNumberInUse', { statusCode: 201, retryAfterSeconds: 300 })],
    },
    {
      // The wait after too many codes holds back that number only: it is refused, another is sent.
      name: 'another phone after too many codes',
      route: '/register/2',
      draft: savedDraft(2),
      events: [
        { type: 'user.submitPhone', phone },
        { type: 'user.submitPhone', phone: otherPhone },
        done('phoneNumberInUse', { statusCode: 0, inUse: false }),
        done('requestVerification', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
      ],
    },
    {
      name: 'texted code',
      route: '/register/2',
      draft: { ...savedDraft(2), phone },
      events: [
        { type: 'user.submitPhone', phone },
        done('phoneNumberInUse', { statusCode: 0, inUse: false }),
        done('requestVerification', { statusCode: 0 }),
        { type: 'user.submitCode', code: '123456' },
        { type: 'user.submitCode', code: '12' },
        { type: 'user.resendCode' },
        { type: 'user.changePhone' },
        done('verifyPhone', { statusCode: 0, mfaToken: 'mfa-new' }),
        done('verifyPhone', { statusCode: 200, attemptsLeft: 2 }),
        done('verifyPhone', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
        done('verifyPhone', { statusCode: 5 }),
        failed('verifyPhone'),
      ],
    },
    {
      // Reloaded while reading the text: back at the code for that phone, which still works.
      name: 'texted code after a reload',
      route: '/register/2',
      draft: { ...savedDraft(2), phone: phoneDigits, codeSentTo: phoneDigits },
      events: [{ type: 'user.submitCode', code: '123456' }, done('verifyPhone', { statusCode: 0, mfaToken: 'mfa-new' })],
    },
    {
      // The companion app reloaded while the text was read: it opens at the first step (the SSN is never
      // kept); past it, the code texted to that phone is asked for, not sent again.
      name: 'texted code after the companion app reloaded',
      route: '/register',
      draft: { ...savedDraft(2), phone: phoneDigits, codeSentTo: phoneDigits },
      events: [personalInfo, done('verifyEmail', { statusCode: 3 }), { type: 'user.submitCode', code: '123456' }, done('verifyPhone', { statusCode: 0, mfaToken: 'mfa-new' })],
    },
    {
      // The companion app reloaded past the phone: it opens at the first step, which asks for the SSN
      // again and says why; then the phone is verified again.
      name: 'first step after the companion app reloaded further on',
      route: '/register',
      draft: savedDraft(4),
      events: [personalInfo, done('verifyEmail', { statusCode: 3 })],
    },
    {
      // Back at the phone step after verifying it, the same number goes straight on.
      name: 'phone already verified',
      route: '/register/2',
      draft: savedDraft(3),
      through: [...phoneVerified, { type: 'user.goToStep', step: 2 }],
      events: [{ type: 'user.submitPhone', phone }],
    },
    {
      // Opened at step 3 after a reload: the chart shows the phone, verified again, then the address.
      name: 'legal address',
      route: '/register/3',
      draft: savedDraft(3),
      through: phoneVerified,
      events: [
        address,
        emptyAddress,
        done('verifyAddress', { statusCode: 0 }),
        ...[300, 301, 302].map((statusCode) => done('verifyAddress', { statusCode })),
        ...[303, 304, 305, 306, 307].map((statusCode) => done('verifyAddress', { statusCode, optOutAllowed: true })),
        done('verifyAddress', { statusCode: 304 }),
        done('verifyAddress', { statusCode: 5 }),
        failed('verifyAddress'),
        { type: 'user.optOut' },
        { type: 'user.backToAddress' },
      ],
    },
    {
      // Apart from the run above: one more editing substate there multiplies its simple paths.
      name: 'address checks limited',
      route: '/register/3',
      draft: savedDraft(3),
      through: phoneVerified,
      events: [address, done('verifyAddress', { statusCode: 201, retryAfterSeconds: 300 })],
    },
    {
      name: 'unlock code, agreements and the application',
      route: '/register/4',
      draft: savedDraft(4),
      through: addressVerified,
      events: [
        { type: 'user.submitUnlockCode', unlockCode: '2580', unlockCodeConfirmation: '2580' },
        { type: 'user.submitUnlockCode', unlockCode: '1111', unlockCodeConfirmation: '1111' },
        { type: 'user.submitAgreements', esign: true, terms: true, cardholder3: true },
        { type: 'user.submitAgreements', esign: true, terms: false, cardholder3: false },
        personalInfo,
        done('verifyEmail', { statusCode: 3 }),
        done('register', { statusCode: 0, access: 'access-new', refresh: 'refresh-new', isInternal: false }),
        done('register', { statusCode: 1 }),
        done('register', { statusCode: 2 }),
        done('register', { statusCode: 4, fieldErrors: { dob: 'dob.under18', 'addressLegal.zip': 'zip.invalid' } }),
        done('register', { statusCode: 4, fieldErrors: { phone: 'phone.unverified' } }),
        done('register', { statusCode: 4, fieldErrors: { 'addressLegal.street2': 'address.301' } }),
        done('register', { statusCode: 4, fieldErrors: { unlockCode: 'unlockCode.obvious' } }),
        done('register', { statusCode: 4, fieldErrors: { legal: 'legal.required' } }),
        done('register', { statusCode: 4, fieldErrors: { somethingElse: 'x' } }),
        failed('register'),
      ],
    },
    {
      // Apart from the run above: one more agreements substate there multiplies its simple paths.
      name: 'application lookups limited',
      route: '/register/4',
      draft: savedDraft(4),
      through: addressVerified,
      events: [
        { type: 'user.submitUnlockCode', unlockCode: '2580', unlockCodeConfirmation: '2580' },
        { type: 'user.submitAgreements', esign: true, terms: true, cardholder3: true },
        // The draft keeps no SSN: it is asked for again, then the application is sent.
        personalInfo,
        done('verifyEmail', { statusCode: 3 }),
        done('register', { statusCode: 201, retryAfterSeconds: 300 }),
        done('register', { statusCode: 2 }),
      ],
    },
    {
      name: 'moving between steps',
      route: '/register/4',
      draft: savedDraft(4),
      through: addressVerified,
      events: [
        { type: 'user.submitUnlockCode', unlockCode: '2580', unlockCodeConfirmation: '2580' },
        ...[1, 2, 3, 4, 5].map((step) => ({ type: 'user.goToStep', step })),
      ],
    },
  ];
  return runs.map((run) => {
    const requestedStep = Number(run.route.split('/')[2] ?? '1');
    const input = inputAt(run.draft, requestedStep);
    return { ...run, input, ...generateListedPaths(registrationMachine, run.events, input, { through: run.through }) };
  });
}
