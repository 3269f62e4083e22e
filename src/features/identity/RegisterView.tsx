import { getRouteApi, useRouter, useRouterState } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { RegisterAnswer } from '../../../contract/identity/types.ts';
import { registrationMachine, registrationScreen, stepOfState } from '../../../machines/identity/registration.ts';
import { draftOf, withTypedFields } from '../../../machines/identity/registrationDraft.ts';
import { hasFailedRegistration } from '../../app/guards.ts';
import { useServices } from '../../app/services.tsx';
import { StepIndicator } from '../../shared/components/StepIndicator.tsx';
import { useStepParam } from '../../shared/components/useStepParam.ts';
import { storeSession } from '../../shared/sessionEffects.ts';
import { AddressStep } from './AddressStep.tsx';
import { AgreementsStep } from './AgreementsStep.tsx';
import { routeStepOf } from './masks.ts';
import { needsCompanionToken, registrationCalls } from './registrationCalls.ts';
import { logRegistrationResult } from './registrationEffects.ts';
import { PersonalInfoStep } from './PersonalInfoStep.tsx';
import { PhoneStep } from './PhoneStep.tsx';
import { AccountExists, ApplicationClosed, ApplicationDenied, OpeningAccount } from './RegistrationOutcome.tsx';
import { UnlockCodeStep } from './UnlockCodeStep.tsx';
import './register.css';

const registerRoute = getRouteApi('/register/{-$step}');

/** How long after the last key the typed fields are saved to the draft. */
export const typingDraftDelayMs = 300;

/**
 * /register/:step? (spec §2, only embedded): renders the registration chart's active state. After a
 * denied or taken application on this device (the failed-registration marker) it shows the failure.
 */
export function RegisterView() {
  const { session } = useServices();
  const [failedBefore] = useState(() => hasFailedRegistration(session.getSnapshot().context));
  return failedBefore ? <ApplicationClosed /> : <RegistrationFlow />;
}

function RegistrationFlow() {
  const { session, api, analytics, host } = useServices();
  const router = useRouter();
  const { step: stepParam } = registerRoute.useParams();
  // The `profile` query as the companion app wrote it (the router would hand it over parsed).
  const searchText = useRouterState({ select: (routerState) => routerState.location.searchStr });
  const [profile] = useState(() => new URLSearchParams(searchText).get('profile'));
  const routeStep = routeStepOf(stepParam);
  const [calls] = useState(() => registrationCalls(api));
  const registration = useActorRef(
    registrationMachine.provide({
      actors: {
        verifyEmail: fromPromise(({ input }) => calls.verifyEmail(input.email)),
        phoneNumberInUse: fromPromise(({ input }) => calls.phoneNumberInUse(input.phone)),
        requestVerification: fromPromise(({ input }) => calls.requestVerification(input.phone)),
        verifyPhone: fromPromise(({ input }) => calls.verifyPhone(input.phone, input.code)),
        verifyAddress: fromPromise(({ input }) => calls.verifyAddress(input)),
        register: fromPromise(async ({ input }) =>
          calls.register(input, needsCompanionToken(input, session.getSnapshot().context.ebtAccountId) ? await host.companionAccessToken() : null),
        ),
      },
      actions: {
        saveDraft: (_, draft) => session.send({ type: 'registration.draftChanged', draft }),
        storeSession: (_, outcome) => storeSession(session, tokensOf(outcome)),
        markRegistrationFailed: () => session.send({ type: 'session.registrationFailed' }),
        logResult: (_, result) => logRegistrationResult(analytics, result),
        continueToHome: () => void router.navigate({ to: '/home', replace: true }),
      },
    }),
    {
      input: {
        draft: session.getSnapshot().context.registrationDraft,
        requestedStep: routeStep,
        profile,
        providersUuid: host.providersUuid,
      },
    },
  );
  const state = useSelector(registration, (snapshot) => snapshot);
  const machineStep = useSelector(registration, stepOfState);
  // The route's step is a request; the chart decides (back to any earlier step, forward only as far as
  // reached). Not `finished`: once the application is answered, the route's guard (routes.ts) and the
  // failed-registration marker (ApplicationClosed above) decide what Back shows.
  useStepParam({
    routeStep,
    machineStep,
    currentStep: () => stepOfState(registration.getSnapshot()),
    goToStep: (step) => registration.send({ type: 'user.goToStep', step }),
    showStep: (step, replace) =>
      void router.navigate({ to: '/register/{-$step}', params: { step: String(step) }, search: (previous: Record<string, unknown>) => previous, replace }),
  });

  // What is typed goes to the draft as it is typed (a little after the last key), not only when a
  // step is sent: a reload or a dropped frame in the companion app then loses nothing.
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  function keepTyped(event: FormEvent<HTMLElement>) {
    const form = (event.target as HTMLInputElement).form;
    if (!form) return;
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => {
      const typed = Object.fromEntries(new FormData(form).entries());
      session.send({ type: 'registration.draftChanged', draft: withTypedFields(draftOf(registration.getSnapshot().context), typed) });
    }, typingDraftDelayMs);
  }

  const send = registration.send;
  const screen = registrationScreen(state);
  if (screen === 'opening') return <OpeningAccount />;
  if (screen === 'denied') return <ApplicationDenied />;
  if (screen === 'taken') return <AccountExists />;
  const { step } = state.context;
  return (
    <section className="screen register" aria-labelledby="register-title" onInput={keepTyped}>
      <StepIndicator current={step} />
      {screen === 'personalInfo' ? (
        <PersonalInfoStep key="personalInfo" state={state} send={send} />
      ) : screen === 'phone' ? (
        <PhoneStep key="phone" state={state} send={send} />
      ) : screen === 'address' ? (
        <AddressStep key="address" state={state} send={send} />
      ) : screen === 'unlockCode' ? (
        <UnlockCodeStep key="unlockCode" state={state} send={send} />
      ) : (
        <AgreementsStep key="agreements" state={state} send={send} />
      )}
    </section>
  );
}

function tokensOf(outcome: RegisterAnswer | undefined) {
  return outcome && 'access' in outcome ? outcome : {};
}
