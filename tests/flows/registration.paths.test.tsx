/**
 * Generated path tests over the registration chart (machines/identity/registration.ts), replayed through the
 * real app and router inside a companion host, with the card API answering at the fetch level as each
 * path says. After every step the screen must show what the chart's state means.
 */
import { i18n, type MessageDescriptor } from '@lingui/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { checkPhone } from '../../contract/identity/rules.ts';
import { agreementKinds } from '../../contract/identity/types.ts';
import { digitsOf } from '../../contract/rules.ts';
import { registrationMachine } from '../../machines/identity/registration.ts';
import type { RegistrationDraft } from '../../machines/identity/registrationDraft.ts';
import { addressOfForm, fieldProblems, normalisedFields } from '../../machines/identity/registrationFieldRules.ts';
import { addressFields, fieldsOfStep, type RegistrationField } from '../../machines/identity/registrationFields.ts';
import { RegistrationProblem, serverFieldProblems, stepOfField, type FieldProblems } from '../../machines/identity/registrationProblems.ts';
import { newUnlockCodeErrors } from '../../machines/shared/newUnlockCode.ts';
import { descriptionOf } from '../support/description.ts';
import { failedRegistrationMarker } from '../../machines/session/session.ts';
import { addressMessages } from '../../src/shared/messages.ts';
import { fieldProblemMessage } from '../../src/features/identity/stepSupport.ts';
import { coverageOf, minimalCover, replayPath, type PathRun } from '../support/chartCoverage.ts';
import { recordingHost, renderApp, signedOut, expectTabTitle } from '../support/renderApp.tsx';
import { otherPhone, phone, phoneDigits, providersUuid, registrationRuns } from '../support/registrationRuns.ts';
import { passServerWait, serverWaitMinutes } from '../support/replayClock.ts';
import { findPhoneSentence, newCodeNotice } from '../support/textedCodeForm.ts';
import { dobInWords } from '../../src/features/identity/masks.ts';

/**
 * What the replay typed and the card API answered along the path. The checks take what the screen
 * should show from here, never from the chart's context: a chart that stored the wrong thing would
 * make the screen and such an expectation wrong together.
 */
type Replay = {
  /** The problems the last check should show: the field rules applied to what was typed, or the server's. */
  problems: FieldProblems;
  /** The phone number typed last (or kept in the draft). */
  phone: string;
  /** The number a code was last texted to, until it was verified (as the draft keeps it). */
  codeSentTo: string | null;
  mfaToken: string | null;
  /** The address check's last answer. */
  addressAnswer: { statusCode: number; optOutAllowed?: boolean } | null;
  unlockCodes: { unlockCode: string; unlockCodeConfirmation: string };
};
type App = Awaited<ReturnType<typeof renderApp>> & { replay: Replay };

const startOf = (draft: RegistrationDraft | null): Replay => ({
  problems: {},
  phone: draft?.phone ?? '',
  codeSentTo: draft?.codeSentTo ?? null,
  mfaToken: null,
  addressAnswer: null,
  // The draft keeps no unlock code.
  unlockCodes: { unlockCode: '', unlockCodeConfirmation: '' },
});

/** The replay's record after one event of the path. */
function replayedAfter(previous: Replay, event: Event): Replay {
  const output = event.output as Record<string, unknown> | undefined;
  // What was typed, as the field rules take it.
  const typed = event as Record<string, unknown>;
  switch (event.type) {
    case 'user.submitPersonalInfo':
      return { ...previous, problems: fieldProblems(fieldsOfStep(1), normalisedFields(fieldsOfStep(1), typed)) };
    case 'user.submitPhone': {
      const problem = checkPhone(normalisedFields(['phone'], typed).phone);
      return { ...previous, phone: String(event.phone), problems: problem ? { phone: problem } : {} };
    }
    case 'user.submitAddress':
      return { ...previous, addressAnswer: null, problems: fieldProblems(addressFields, addressOfForm(typed)) };
    case 'user.submitUnlockCode': {
      const codes = { unlockCode: String(event.unlockCode), unlockCodeConfirmation: String(event.unlockCodeConfirmation) };
      return { ...previous, unlockCodes: codes, problems: newUnlockCodeErrors(codes) };
    }
    case 'user.submitAgreements':
      return { ...previous, problems: Object.fromEntries(agreementKinds.filter((kind) => event[kind] !== true).map((kind) => [kind, RegistrationProblem.agreementRequired])) };
    case 'xstate.done.actor.requestVerification':
      return output?.statusCode === 0 ? { ...previous, codeSentTo: digitsOf(previous.phone) } : previous;
    case 'xstate.done.actor.verifyPhone':
      return output?.statusCode === 0 ? { ...previous, codeSentTo: null, mfaToken: String(output.mfaToken) } : previous;
    case 'xstate.done.actor.verifyAddress':
      return { ...previous, addressAnswer: output as Replay['addressAnswer'] };
    case 'xstate.done.actor.register':
      return output?.statusCode === 4 ? { ...previous, problems: serverFieldProblems(output.fieldErrors as never) } : previous;
    default:
      return previous;
  }
}
type Path = PathRun['paths'][number];
type Event = EventObject & Record<string, unknown>;

const runs = registrationRuns();

/**
 * The paths to replay for a run: a minimal set reaching every state and transition, plus, for every
 * listed event (each address code, each /register outcome…) that set does not send, the shortest path
 * that does, so every answer is seen on screen at least once.
 */
function pathsToReplay(run: (typeof runs)[number]): Path[] {
  const chosen = minimalCover(registrationMachine, run);
  const key = (event: EventObject) => JSON.stringify(event);
  const sent = new Set(chosen.flatMap((path) => path.steps.map((step) => key(step.event))));
  const byLength = [...run.paths].sort((a, b) => a.steps.length - b.steps.length);
  for (const event of run.events) {
    if (sent.has(key(event))) continue;
    const path = byLength.find((candidate) => candidate.steps.some((step) => key(step.event) === key(event)));
    if (!path) continue;
    chosen.push(path);
    path.steps.forEach((step) => sent.add(key(step.event)));
  }
  return chosen;
}

/** A path as its events (with each answer's statusCode) and the states they lead to. */
function describeSteps(path: Path): string {
  return path.steps
    .map(({ event, state }) => {
      const output = (event as { output?: { statusCode?: number } }).output;
      const step = (event as { step?: number }).step;
      const detail = output?.statusCode !== undefined ? `(${output.statusCode})` : step !== undefined ? `(${step})` : '';
      return `${event.type.replace(/^xstate\.(done|error)\.actor\./, '$1:')}${detail}→${JSON.stringify(state.value)}`;
    })
    .join(' ; ');
}

const api = (path: string) => `/api/v1${path}`;
const callOf: Record<string, string> = {
  verifyEmail: api('/verify/email'),
  phoneNumberInUse: api('/phone-number-in-use'),
  requestVerification: api('/request-verification'),
  verifyPhone: api('/verify-phone'),
  verifyAddress: api('/verify-address'),
  register: api('/register'),
};

async function waitingFor(app: App, path: string) {
  await waitFor(() => expect(app.cardApi.isWaiting(path)).toBe(true));
}

function lastBody(app: App, path: string): unknown {
  const request = [...app.cardApi.requests].reverse().find((candidate) => candidate.path === path);
  return JSON.parse(String(request?.init?.body));
}

/** The HTTP status the card API answers each result with (the client tells /register's apart by it). */
function httpStatusOf(actor: string, output: { statusCode?: number }): number {
  if (actor === 'register') return output.statusCode === 0 ? 200 : output.statusCode === 4 ? 400 : output.statusCode === 201 ? 429 : 403;
  if (actor === 'verifyEmail' && output.statusCode === 3) return 404;
  return output.statusCode === 201 ? 429 : 200;
}

async function fill(app: App, label: string, value: unknown) {
  const input = await screen.findByLabelText(label);
  await app.user.clear(input);
  if (typeof value === 'string' && value !== '') await app.user.type(input, value);
}

const text = (message: MessageDescriptor) => i18n._(message);

/** The fields whose rule is read with them (aria-describedby), before any problem. */
const fieldHints: Partial<Record<RegistrationField, string>> = {
  unlockCode: "You'll use this 4-digit code to open the app. Avoid codes that are easy to guess, like 1234.",
};

/** Every field problem of the step the replay should see (what was typed, or the server's) is shown on its field. */
function expectFieldProblems(replay: Replay, step: number, labels: Partial<Record<RegistrationField, string>>) {
  const problems = Object.entries(replay.problems).filter(([field]) => stepOfField[field as RegistrationField] === step);
  expect(problems.length).toBeGreaterThan(0);
  for (const [field, problem] of problems) {
    const label = labels[field as RegistrationField];
    if (!label) continue;
    const input = screen.getByLabelText(label);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    // Read with the field: its rule, when it has one (a real date of birth, in words), then the problem.
    const words = field === 'dob' ? dobInWords((input as HTMLInputElement).value, 'en') : null;
    const hint = words ? `That's ${words}.` : fieldHints[field as RegistrationField];
    expect(descriptionOf(input)).toBe([hint, text(fieldProblemMessage(String(problem)))].filter(Boolean).join(' '));
  }
}

const personalLabels: Partial<Record<RegistrationField, string>> = {
  firstName: 'First name',
  middleName: 'Middle name (optional)',
  lastName: 'Last name',
  dob: 'Date of birth (MM/DD/YYYY)',
  ssn: 'Social Security number',
  email: 'Email',
};
const addressLabels: Partial<Record<RegistrationField, string>> = {
  street1: 'Street address',
  street2: 'Apartment or unit (optional)',
  city: 'City',
  state: 'State',
  zip: 'ZIP code',
};
const agreementLabels: Partial<Record<RegistrationField, string>> = {
  esign: 'I agree to the E-Sign Agreement',
  terms: 'I agree to the Terms of use',
  cardholder3: 'I agree to the Cardholder Agreement',
};

/** The step indicator and the URL follow the chart's step. */
async function expectStep(app: App, step: number, heading: string) {
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  expect(screen.getByText(`Step ${step} of 5`)).toBeTruthy();
  const current = within(screen.getByRole('list', { name: 'Progress' })).getAllByRole('listitem');
  expect(current.map((item) => item.getAttribute('aria-current'))).toEqual([1, 2, 3, 4, 5].map((n) => (n === step ? 'step' : null)));
  await waitFor(() => expect([`/register/${step}`, ...(step === 1 ? ['/register'] : [])]).toContain(app.router.state.location.pathname));
}

const noAlert = () => expect(screen.queryByRole('alert')).toBeNull();
const unexpected = 'There was an unexpected error. Please try again.';

const at = (snapshot: AnyMachineSnapshot, value: unknown) => snapshot.matches(value as never);

const states: { when: (s: AnyMachineSnapshot) => boolean; then: (app: App, s: AnyMachineSnapshot) => Promise<void> }[] = [
  // Step 1: personal info.
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'idle' } } }),
    then: async (app) => {
      await expectStep(app, 1, 'Tell us about yourself');
      noAlert();
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'invalid' } } }),
    then: async (app) => {
      await expectStep(app, 1, 'Tell us about yourself');
      await waitFor(() => expectFieldProblems(app.replay, 1, personalLabels));
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'ssnNeeded' } } }),
    then: async (app) => {
      await expectStep(app, 1, 'Tell us about yourself');
      expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe('For your security, please enter your Social Security number again.');
      expect((screen.getByLabelText('Social Security number') as HTMLInputElement).value).toBe('');
      expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ana');
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'emailTaken' } } }),
    then: async () => {
      const email = await screen.findByLabelText('Email');
      await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
      expect(screen.getByText('This email is already used by a Providers account.')).toBeTruthy();
      expect(document.activeElement).toBe(email);
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'tooManyLookups' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('For your security, please wait 5 minutes before trying again.'));
      // What was typed stays, to send again once the wait is over.
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ana@example.test');
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: { editing: 'failed' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(unexpected));
    },
  },
  {
    when: (s) => at(s, { inputting: { personalInfo: 'checkingEmail' } }),
    then: async (app) => {
      await waitingFor(app, callOf.verifyEmail!);
      expect(lastBody(app, callOf.verifyEmail!)).toEqual({ email: 'ana@example.test' });
      expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('aria-disabled')).toBe('true');
    },
  },
  // Step 2: phone.
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'idle' } } }),
    then: async (app) => {
      await expectStep(app, 2, 'Verify your phone');
      expect(screen.getByLabelText('Mobile phone number').getAttribute('autocomplete')).toBe('tel-national');
      noAlert();
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'invalid' } } }),
    then: async (app) => {
      await expectStep(app, 2, 'Verify your phone');
      await waitFor(() => expectFieldProblems(app.replay, 2, { phone: 'Mobile phone number' }));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'inUse' } } }),
    then: async () => {
      expect(await screen.findByText('This phone number is already used by another account.')).toBeTruthy();
      expect(screen.getByLabelText('Mobile phone number').getAttribute('aria-invalid')).toBe('true');
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'cannotText' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(`We weren't able to text a code to ${phone}.`));
      // A refusal of the whole step takes the focus to its message.
      await waitFor(() => expect(document.activeElement?.textContent).toBe(`We weren't able to text a code to ${phone}.`));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'landline' } } }),
    then: async () => {
      expect(await screen.findByText("Please enter a mobile phone number. We can't text a landline.")).toBeTruthy();
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'tooManyLookups' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('For your security, please wait 5 minutes before trying again.'));
      expect((screen.getByLabelText('Mobile phone number') as HTMLInputElement).value).toBe(phone);
      await waitFor(() => expect(document.activeElement?.textContent).toBe('For your security, please wait 5 minutes before trying again.'));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { editing: 'failed' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(unexpected));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: 'checkingInUse' } }),
    then: async (app) => {
      await waitingFor(app, callOf.phoneNumberInUse!);
      expect(lastBody(app, callOf.phoneNumberInUse!)).toEqual({ phone: digitsOf(app.replay.phone) });
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: 'requestingCode' } }),
    then: async (app) => {
      await waitingFor(app, callOf.requestVerification!);
      expect(lastBody(app, callOf.requestVerification!)).toEqual({ phone: digitsOf(app.replay.phone) });
      // A new code for the same phone keeps the code form, so its status is there to say it was sent.
      const again = app.replay.codeSentTo === digitsOf(app.replay.phone);
      expect(screen.queryByRole('group', { name: 'Texted code' }) !== null).toBe(again);
      // Send a new code let the focus go as it was pressed, not when the browser next draws: an
      // answer before that kept the focus on it (the first box did not take it).
      if (again) expect(document.activeElement?.textContent).not.toBe('Send a new code');
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: 'waiting' } }),
    then: async (app) => {
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(`Too many codesFor your security, please wait ${serverWaitMinutes} minutes before asking for a new code.`);
      await waitFor(() => expect(document.activeElement?.textContent).toBe(alert.textContent));
      expect(screen.getByRole('button', { name: /Send code|Continue/ }).getAttribute('aria-disabled')).toBe('true');
      // Only that number is held back: Send code is available for another.
      const field = screen.getByLabelText('Mobile phone number') as HTMLInputElement;
      const typed = field.value;
      await app.user.clear(field);
      await app.user.type(field, digitsOf(typed) === digitsOf(otherPhone) ? phone : otherPhone);
      expect(screen.getByRole('button', { name: 'Send code' }).getAttribute('aria-disabled')).toBe('false');
      await app.user.clear(field);
      await app.user.type(field, typed);
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { enteringCode: 'idle' } } }) || at(s, { inputting: { phone: { enteringCode: 'resent' } } }),
    then: async (app, s) => {
      await findPhoneSentence(`We texted a 6-digit code to ${phone}.`, phone);
      expect(screen.getByRole('group', { name: 'Texted code' })).toBeTruthy();
      expect(screen.getAllByLabelText(/^Digit \d of 6$/)).toHaveLength(6);
      noAlert();
      // A code asked for again says so (the same sentence would otherwise show as if nothing happened).
      const resent = at(s, { inputting: { phone: { enteringCode: 'resent' } } });
      expect(newCodeNotice()).toBe(resent ? 'We sent you a new code.' : '');
      // After a new code a browser drops the focus from the busy link and the first box takes it
      // (e2e/register.spec.ts); jsdom keeps it on the link, so it is not checked here.
      if (resent) return;
      // Arrived by Send code (gone now), the code's first box has the focus, to type the code; opened
      // at this step (a reload), the heading has it, as on every screen.
      const sent = app.cardApi.requests.some((request) => request.path === callOf.requestVerification);
      const focused = sent ? screen.getByLabelText('Digit 1 of 6') : screen.getByRole('heading', { level: 1, name: 'Verify your phone' });
      await waitFor(() => expect(document.activeElement).toBe(focused));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { enteringCode: 'invalid' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please enter the 6-digit code we texted you.'));
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Digit 1 of 6')));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { enteringCode: 'wrongCode' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe("This isn't the right code. You can try 2 more times."));
      // From Verify to the first box, as a field in error takes it: the code is typed again there.
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Digit 1 of 6')));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: { enteringCode: 'failed' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(unexpected));
    },
  },
  {
    when: (s) => at(s, { inputting: { phone: 'verifyingCode' } }),
    then: async (app) => {
      await waitingFor(app, callOf.verifyPhone!);
      expect(lastBody(app, callOf.verifyPhone!)).toEqual({ phone: phoneDigits, code: '123456' });
      expect(screen.getByRole('button', { name: 'Verify' }).getAttribute('aria-disabled')).toBe('true');
    },
  },
  // Step 3: legal address.
  {
    when: (s) => at(s, { inputting: { address: { editing: 'idle' } } }),
    then: async (app) => {
      await expectStep(app, 3, 'Your legal address');
      expect(screen.getAllByRole('option')).toHaveLength(51);
      noAlert();
    },
  },
  {
    when: (s) => at(s, { inputting: { address: { editing: 'invalid' } } }),
    then: async (app) => {
      await expectStep(app, 3, 'Your legal address');
      await waitFor(() => expectFieldProblems(app.replay, 3, addressLabels));
    },
  },
  {
    when: (s) => at(s, { inputting: { address: { editing: 'rejected' } } }),
    then: async (app) => {
      const addressCode = app.replay.addressAnswer?.statusCode;
      const optOutAllowed = app.replay.addressAnswer?.optOutAllowed === true;
      const message = text(addressMessages[addressCode!]!);
      const unitCode = addressCode === 301 || addressCode === 302;
      // The unit the address check asks for is not said to be optional.
      const unit = await screen.findByLabelText(unitCode ? 'Apartment or unit' : 'Apartment or unit (optional)');
      const street = screen.getByLabelText('Street address');
      // A refusal of one line (the unit; a PO Box or General Delivery on the street line) flags that
      // field: invalid, with the message tied to it, and focused. Others are about the whole address.
      const flagged = unitCode ? unit : addressCode === 304 || addressCode === 306 ? street : null;
      if (flagged) {
        await waitFor(() => expect(flagged.getAttribute('aria-invalid')).toBe('true'));
        expect(document.getElementById(flagged.getAttribute('aria-describedby')!)?.textContent).toBe(message);
        expect(document.activeElement).toBe(flagged);
        noAlert();
      } else {
        await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
        // About the whole address: its message takes the focus.
        await waitFor(() => expect(document.activeElement?.textContent).toBe(message));
        expect(unit.getAttribute('aria-invalid')).toBeNull();
        expect(street.getAttribute('aria-invalid')).toBeNull();
      }
      const optOut = screen.queryByRole('button', { name: 'If you don’t have a legal address, tap here.' });
      expect(optOut !== null).toBe(optOutAllowed && addressCode! >= 303);
    },
  },
  {
    when: (s) => at(s, { inputting: { address: { editing: 'tooManyLookups' } } }),
    then: async () => {
      const wait = 'For your security, please wait 5 minutes before trying again.';
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(wait));
      // What was typed stays, to send again once the wait is over; the message takes the focus.
      expect((screen.getByLabelText('Street address') as HTMLInputElement).value).toBe(' 12 Elm St ');
      await waitFor(() => expect(document.activeElement?.textContent).toBe(wait));
    },
  },
  {
    when: (s) => at(s, { inputting: { address: { editing: 'failed' } } }),
    then: async () => {
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(unexpected));
    },
  },
  {
    when: (s) => at(s, { inputting: { address: 'verifying' } }),
    then: async (app) => {
      await waitingFor(app, callOf.verifyAddress!);
      expect(lastBody(app, callOf.verifyAddress!)).toEqual({
        street1: '12 Elm St',
        street2: 'Apt 4',
        city: 'Columbus',
        state: 'OH',
        zip: '43004-1234',
        addressType: 'legal',
      });
    },
  },
  {
    when: (s) => at(s, { inputting: { address: 'noLegalAddress' } }),
    then: async (app) => {
      await expectStep(app, 3, 'A residential address is needed');
      expect(screen.getByRole('link', { name: 'Contact support' })).toBeTruthy();
    },
  },
  // Step 4: unlock code.
  {
    when: (s) => at(s, { inputting: { unlockCode: 'idle' } }),
    then: async (app) => {
      await expectStep(app, 4, 'Choose an unlock code');
      noAlert();
      // Back at this step, the codes are as they were typed (empty the first time).
      const form = app.replay.unlockCodes;
      expect((screen.getByLabelText('Unlock code') as HTMLInputElement).value).toBe(form.unlockCode);
      expect(descriptionOf(screen.getByLabelText('Unlock code'))).toBe(fieldHints.unlockCode);
      expect((screen.getByLabelText('Confirm unlock code') as HTMLInputElement).value).toBe(form.unlockCodeConfirmation);
    },
  },
  {
    when: (s) => at(s, { inputting: { unlockCode: 'invalid' } }),
    then: async (app) => {
      await expectStep(app, 4, 'Choose an unlock code');
      await waitFor(() => expectFieldProblems(app.replay, 4, { unlockCode: 'Unlock code', unlockCodeConfirmation: 'Confirm unlock code' }));
    },
  },
  // Step 5: agreements.
  {
    when: (s) => at(s, { inputting: { agreements: 'idle' } }),
    then: async (app) => {
      await expectStep(app, 5, 'Review and accept the agreements');
      noAlert();
    },
  },
  {
    when: (s) => at(s, { inputting: { agreements: 'invalid' } }),
    then: async (app) => {
      await expectStep(app, 5, 'Review and accept the agreements');
      await waitFor(() => expectFieldProblems(app.replay, 5, agreementLabels));
    },
  },
  {
    when: (s) => at(s, { inputting: { agreements: 'failed' } }),
    then: async (app) => {
      await expectStep(app, 5, 'Review and accept the agreements');
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(`${unexpected}Nothing you entered was lost.`));
      // Nothing lost: the agreements are still checked and the draft is still saved.
      for (const label of Object.values(agreementLabels)) expect((screen.getByLabelText(label!) as HTMLInputElement).checked).toBe(true);
      expect(app.session.getSnapshot().context.registrationDraft?.firstName).toBe('Ana');
    },
  },
  {
    when: (s) => at(s, { inputting: { agreements: 'tooManyLookups' } }),
    then: async (app) => {
      await expectStep(app, 5, 'Review and accept the agreements');
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('For your security, please wait 5 minutes before trying again.'));
      // Nothing lost: the agreements stay checked, to send the application again once the wait is over.
      for (const label of Object.values(agreementLabels)) expect((screen.getByLabelText(label!) as HTMLInputElement).checked).toBe(true);
      expect(app.session.getSnapshot().context.registrationDraft?.firstName).toBe('Ana');
    },
  },
  // PROCESSING, SUCCESS, FAILURE.
  {
    when: (s) => at(s, 'processing'),
    then: async (app) => {
      expect(await screen.findByRole('heading', { name: 'Opening your account…' })).toBeTruthy();
      await expectTabTitle('Opening your account…');
      await waitingFor(app, callOf.register!);
      const body = lastBody(app, callOf.register!);
      // What was typed, normalised as spec §5 says, the phone with the token its code verification answered,
      // and sent with the companion user's uuid.
      expect(body).toEqual({
        firstName: 'Ana',
        middleName: 'María',
        lastName: 'López-Pérez',
        email: 'ana@example.test',
        dob: '01/05/1990',
        ssn: '123456789',
        phone: phoneDigits,
        mfaToken: app.replay.mfaToken,
        addressLegal: { street1: '12 Elm St', street2: 'Apt 4', city: 'Columbus', state: 'OH', zip: '43004-1234' },
        unlockCode: '2580',
        legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
        providersUuid,
        profile: null,
      });
      const headers = new Headers(app.cardApi.requests.at(-1)?.init?.headers);
      expect(headers.has('Authorization')).toBe(false);
    },
  },
  {
    when: (s) => at(s, 'success'),
    then: async (app) => {
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
      expect(app.session.getSnapshot().context).toMatchObject({
        accessToken: 'access-new',
        refreshToken: 'refresh-new',
        registrationDraft: null,
      });
      await app.services.analytics.flush();
      expect(app.tracked.filter((event) => event.name === 'registration.result').map((event) => event.properties)).toEqual([
        { result: 'success' },
      ]);
    },
  },
  {
    when: (s) => at(s, { failure: 'denied' }) || at(s, { failure: 'taken' }),
    then: async (app, s) => {
      const denied = at(s, { failure: 'denied' });
      const heading = denied ? 'Unfortunately, we could not accept your application.' : 'You already have a Providers account';
      expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
      await expectTabTitle(heading);
      if (!denied) expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Contact support' })).toBeTruthy();
      expect(app.session.getSnapshot().context).toMatchObject({
        accessToken: null,
        refreshToken: failedRegistrationMarker,
        registrationDraft: null,
      });
      expect(app.session.getSnapshot().matches({ auth: 'signedOut' })).toBe(true);
      await app.services.analytics.flush();
      const results = app.tracked.filter((event) => event.name === 'registration.result').map((event) => event.properties);
      expect(results).toEqual([{ result: denied ? 'denied' : 'taken' }]);
      // No personal data in the event.
      expect(JSON.stringify(results)).not.toMatch(/Ana|123456789|ana@/);
    },
  },
];

async function answer(app: App, actor: string, event: Event) {
  const path = callOf[actor]!;
  await waitingFor(app, path);
  if (event.type.startsWith('xstate.error.actor.')) {
    app.cardApi.fail(path);
    return;
  }
  const output = event.output as { statusCode: number };
  app.cardApi.answer(path, output, httpStatusOf(actor, output));
}

const events: Record<string, (app: App, event: Event) => Promise<void>> = {
  'user.submitPersonalInfo': async (app, event) => {
    await screen.findByRole('heading', { name: 'Tell us about yourself' });
    for (const [field, label] of Object.entries(personalLabels)) await fill(app, label!, event[field]);
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
  },
  'user.submitPhone': async (app, event) => {
    await fill(app, 'Mobile phone number', event.phone);
    await app.user.click(screen.getByRole('button', { name: /^(Send code|Continue)$/ }));
  },
  'user.submitCode': async (app, event) => {
    const boxes = await screen.findAllByLabelText(/^Digit \d of 6$/);
    for (const box of boxes) await app.user.clear(box);
    await app.user.type(boxes[0]!, String(event.code));
    await app.user.click(screen.getByRole('button', { name: 'Verify' }));
  },
  'user.resendCode': async (app) => app.user.click(await screen.findByRole('button', { name: 'Send a new code' })),
  'user.changePhone': async (app) => app.user.click(await screen.findByRole('button', { name: 'Change phone number' })),
  'user.submitAddress': async (app, event) => {
    await fill(app, 'Street address', event.street1);
    await fill(app, 'Apartment or unit (optional)', event.street2);
    await fill(app, 'City', event.city);
    await app.user.selectOptions(screen.getByLabelText('State'), String(event.state));
    await fill(app, 'ZIP code', event.zip);
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
  },
  'user.optOut': async (app) =>
    app.user.click(await screen.findByRole('button', { name: 'If you don’t have a legal address, tap here.' })),
  'user.backToAddress': async (app) => app.user.click(await screen.findByRole('button', { name: 'Back to the address form' })),
  'user.submitUnlockCode': async (app, event) => {
    await fill(app, 'Unlock code', event.unlockCode);
    await fill(app, 'Confirm unlock code', event.unlockCodeConfirmation);
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
  },
  'user.submitAgreements': async (app, event) => {
    for (const [kind, label] of Object.entries(agreementLabels)) {
      const box = (await screen.findByLabelText(label!)) as HTMLInputElement;
      if (box.checked !== event[kind]) await app.user.click(box);
    }
    await app.user.click(screen.getByRole('button', { name: 'Agree and open my account' }));
  },
  // The route's step param, as the browser's back and forward buttons or a typed URL change it.
  'user.goToStep': async (app, event) => {
    await app.router.navigate({ to: '/register/{-$step}', params: { step: String(event.step) } });
  },
  // The server's wait is over: the form is usable again (the chart re-checks at the deadline).
  'xstate.after.untilRetry.registration.inputting.phone.waiting': async () => {
    await passServerWait();
    await waitFor(() => expect(screen.queryByText('Too many codes')).toBeNull());
  },
  ...Object.fromEntries(
    Object.keys(callOf).flatMap((actor) => [
      [`xstate.done.actor.${actor}`, (app: App, event: Event) => answer(app, actor, event)],
      [`xstate.error.actor.${actor}`, (app: App, event: Event) => answer(app, actor, event)],
    ]),
  ),
};

describe('registration chart', () => {
  // Walks about 2,800 paths on live actors: CPU-bound, slow when the other test worker is busy too.
  it('generated paths reach every state and transition', { timeout: 120_000 }, () => {
    expect(coverageOf(registrationMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cases = runs.flatMap((run) =>
    pathsToReplay(run).map((path) => [`${run.name}: ${describeSteps(path)}`, run, path] as const),
  );

  it.each(cases)('path %s', async (_name, run, path) => {
    await replayPath<App>(path, {
      start: async () => ({
        ...(await renderApp(run.route, { ...signedOut, registrationDraft: run.draft }, { host: recordingHost({ embedded: true, providersUuid }).host })),
        replay: startOf(run.draft),
      }),
      // Each event as the user or the server would, then noted in the replay's record.
      events: Object.fromEntries(
        Object.entries(events).map(([type, perform]) => [
          type,
          async (app: App, event: Event) => {
            await perform(app, event);
            app.replay = replayedAfter(app.replay, event);
          },
        ]),
      ),
      states,
    });
  });
});
