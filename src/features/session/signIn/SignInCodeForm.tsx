/**
 * Sign-in's second step, the texted code (105): a file of its own, so the first screen (email and
 * password) loads without the code entry. SignInView starts loading it as the credentials are sent, so
 * it is usually here before the server's answer asks for a code.
 */
import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { textedCodeLength } from '../../../../contract/rules.ts';
import { StatusCode } from '../../../../contract/shared/statusCodes.ts';
import type { SignInEvent, SignInSnapshot } from '../../../../machines/session/signIn.ts';
import { textedCodeProblems } from '../../../../machines/shared/textedCode.ts';
import { focusIsNowhere, letFocusGoThen } from '../../../shared/components/focusIsNowhere.ts';
import { TextedCodeEntry } from '../../../shared/textedCode/TextedCodeEntry.tsx';
import { TooManyCodesNotice } from '../../../shared/waitNotices.tsx';
import { authModalTitleId, type ViewHeading } from '../authModal/authModalTitle.ts';

export type FormProps = { state: SignInSnapshot; send: (event: SignInEvent) => void; Heading: ViewHeading; inModal: boolean };

/** The texted code (105): six boxes, sent with the same /sign-in call. */
export function CodeForm({ state, send, Heading, inModal }: FormProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { phone, attemptsLeft, textProblem, retryAt } = state.context;
  const verifying = state.hasTag('verifying');
  const busy = state.hasTag('busy');
  const cannotText = state.hasTag('cannotText');
  const waiting = state.hasTag('waiting');
  const sentTo = phone ?? '';
  useEffect(() => heading.current?.focus(), []);
  // A notice that replaces the form (too many codes, a phone that cannot be texted) came after Verify or
  // Send a new code, which went with the form: the heading takes the focus back, the notice under it.
  useEffect(() => {
    if ((waiting || cannotText) && focusIsNowhere()) heading.current?.focus();
  }, [waiting, cannotText]);

  const headingId = inModal ? authModalTitleId : 'signin-code-title';
  return (
    <section className="screen" aria-labelledby={headingId}>
      <Heading id={headingId} ref={heading} tabIndex={-1}>
        <Trans>Enter your code</Trans>
      </Heading>
      {cannotText && textProblem === StatusCode.INVALID_PHONE_NUMBER ? (
        // The phone on file is not one a code can go to (spec §8): only support can change it.
        <div className="form-error" role="alert">
          <p>
            <Trans>We don't recognize your phone</Trans>
          </p>
          <p>
            <Trans>Please contact support to change the phone number on your account.</Trans>
          </p>
        </div>
      ) : cannotText ? (
        <div className="form-error" role="alert">
          <p>{sentTo ? <Trans>We weren't able to text a code to <span className="nowrap">{sentTo}</span>.</Trans> : <Trans>We weren't able to text you a code.</Trans>}</p>
          {textProblem === StatusCode.INVALID_PHONE_LANDLINE ? (
            <p>
              <Trans>We can only text a mobile phone. Please contact support to change the phone number on your account.</Trans>
            </p>
          ) : null}
        </div>
      ) : waiting ? (
        <TooManyCodesNotice retryAt={retryAt} />
      ) : (
        <TextedCodeEntry
          id="signin-code"
          phone={sentTo}
          codeLength={textedCodeLength}
          {...textedCodeProblems(state)}
          attemptsLeft={attemptsLeft}
          busy={busy}
          readOnly={busy}
          verifying={verifying}
          resending={state.hasTag('resending')}
          resent={state.hasTag('resent')}
          onSubmit={(code) => send({ type: 'user.submitCode', code })}
        />
      )}
      <div className="screen-links">
        {waiting ? null : (
          <button type="button" className="link-button" disabled={busy} onClick={letFocusGoThen(() => send({ type: 'user.resendCode' }))}>
            <Trans>Send a new code</Trans>
          </button>
        )}
        <button type="button" className="link-button" disabled={busy} onClick={() => send({ type: 'user.backToSignIn' })}>
          <Trans>Back to sign in</Trans>
        </button>
        <Link to="/customer-support">
          <Trans>Contact support</Trans>
        </Link>
      </div>
    </section>
  );
}
