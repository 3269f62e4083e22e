import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ResultHeading } from '../../shared/screens/ResultHeading.tsx';

/** The outcomes' headings, which title the tab while they are up (ResultHeading). */
const openingTitle = msg`Opening your account…`;
const deniedTitle = msg`Unfortunately, we could not accept your application.`;
const accountExistsTitle = msg`You already have a Providers account`;

/** PROCESSING (and the moment after SUCCESS, before home opens). */
export function OpeningAccount() {
  return (
    <section className="screen" aria-labelledby="register-title" aria-busy="true">
      <ResultHeading id="register-title" title={openingTitle} />
      <p role="status">
        <Trans>This can take a moment. Please keep the app open.</Trans>
      </p>
      <span className="spinner" aria-hidden="true" />
    </section>
  );
}

/** FAILURE, APPLICATION_DENIED (spec §8 text), and what the person can do next. */
export function ApplicationDenied() {
  return (
    <ClosedApplication
      title={deniedTitle}
      explanation={
        <>
          <Trans>Thank you for your interest in Providers. This usually happens when we can't verify your identity with the information given.</Trans>{' '}
          <Trans>Nothing was charged, and no account was opened.</Trans>
        </>
      }
      nextSteps={
        // What was given cannot be changed on this device any more: both steps go through support.
        <ul>
          <li>
            <Trans>Check that your name, date of birth, Social Security number and address match your official records.</Trans>
          </li>
          <li>
            <Trans>Contact our support team: they can tell you why and what information was used, and help you apply again.</Trans>
          </li>
        </ul>
      }
    />
  );
}

/** FAILURE, CIP_TAKEN: an account already exists for this person. */
export function AccountExists() {
  return (
    <ClosedApplication
      title={accountExistsTitle}
      explanation={<Trans>An account already exists for this person. Please sign in, or contact support if you need help.</Trans>}
      offerSignIn
    />
  );
}

/** /register after a denied or taken application on this device (the failed-registration marker). */
export function ApplicationClosed() {
  return (
    <ClosedApplication
      title={deniedTitle}
      explanation={<Trans>If you already have a Providers account, please sign in. If you have questions, our support team can help.</Trans>}
      offerSignIn
    />
  );
}

type ClosedApplicationProps = {
  title: MessageDescriptor;
  explanation: ReactNode;
  /** What the person can do now. */
  nextSteps?: ReactNode;
  /** Sign-in first (an account may exist), then support; else support only. */
  offerSignIn?: boolean;
};

/** An application that cannot go on: why, and where to go from here. */
function ClosedApplication({ title, explanation, nextSteps, offerSignIn = false }: ClosedApplicationProps) {
  return (
    <section className="screen" aria-labelledby="register-title">
      <ResultHeading id="register-title" title={title} />
      <p>{explanation}</p>
      {nextSteps ? (
        <>
          <h2>
            <Trans>What you can do</Trans>
          </h2>
          {nextSteps}
        </>
      ) : null}
      <p className="screen-links">
        {offerSignIn ? (
          <Link to="/signin/{-$step}" params={{ step: undefined }} className="button">
            <Trans>Sign in</Trans>
          </Link>
        ) : null}
        <Link to="/customer-support">
          <Trans>Contact support</Trans>
        </Link>
      </p>
    </section>
  );
}
