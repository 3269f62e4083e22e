/**
 * Parts of home that depend on where the app runs: content for the benefits the companion app
 * knows the cardholder gets (spec §6: CTC and SSI_SSDI show specific content), the notification
 * prompt the host owns, copying the account number and free tax filing help (links open outside).
 */
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import { useServices } from '../../app/services.tsx';
import { ActionButton } from '../../shared/components/ActionButton.tsx';
import { focusIsNowhere } from '../../shared/components/focusIsNowhere.ts';
import type { HostActor } from '../../shared/host/host.ts';
import type { BenefitKind } from '../../../contract/hostProtocol.ts';
import { freeTaxFilingUrl } from './links.ts';

export function CopyAccountNumber({ prn }: { prn: string }) {
  const { host, session } = useServices();
  const copy = () =>
    host.copyText(prn).then(
      () => session.send({ type: 'snackbar.show', message: 'accountNumberCopied' }),
      () => session.send({ type: 'snackbar.show', message: 'copyFailed' }),
    );
  return (
    <button type="button" className="link-button" onClick={() => void copy()}>
      <Trans>Copy account number</Trans>
    </button>
  );
}

export function NotificationsPrompt() {
  const { host } = useServices();
  return host.actor ? <NotificationsPromptFor actor={host.actor} /> : null;
}

function NotificationsPromptFor({ actor }: { actor: HostActor }) {
  const permission = useSelector(actor, (s) => s.context.notificationPermission);
  const asking = useSelector(actor, (s) => s.hasTag('askingPermission'));
  // Asked from this tile: its answer replaces the tile and its button, so it takes the focus the button had.
  // An ask that ends with nothing decided (the host failed, or the phone's dialog was dismissed) leaves the
  // tile as it was: a later change made in the phone's settings is not this tile's answer. That end is
  // noted in the render that sees it, not in an effect: the effect of the render that drew the tile
  // could still be pending at a quick press, then ran after it and undid it (the answer took no focus).
  const [asked, setAsked] = useState(false);
  const [wasAsking, setWasAsking] = useState(asking);
  if (asking !== wasAsking) {
    setWasAsking(asking);
    if (!asking && permission === 'NOT_YET_REQUESTED') setAsked(false);
  }
  const answer = useCallback((notice: HTMLParagraphElement | null) => {
    if (notice && focusIsNowhere()) notice.focus();
  }, []);
  const ask = () => {
    setAsked(true);
    actor.send({ type: 'user.requestNotificationPermission' });
  };
  if (permission === 'NOT_YET_REQUESTED') {
    return (
      <section className="tile" aria-labelledby="notifications-title">
        <h2 id="notifications-title">
          <Trans>Know when money arrives</Trans>
        </h2>
        <p>
          <Trans>Get a notification when a deposit lands or your card is used.</Trans>
        </p>
        <ActionButton unavailable={asking} onPress={ask}>
          <Trans>Turn on notifications</Trans>
        </ActionButton>
      </section>
    );
  }
  if (permission === 'DISABLED') {
    return (
      <p className="notice" role="status" tabIndex={-1} ref={asked ? answer : undefined}>
        <Trans>Notifications are off. You can turn them on in your phone's settings.</Trans>
      </p>
    );
  }
  if (permission === 'ENABLED' && asked) {
    return (
      <p className="notice" role="status" tabIndex={-1} ref={answer}>
        <Trans>Notifications are on. We'll let you know when a deposit lands or your card is used.</Trans>
      </p>
    );
  }
  return null;
}

export function BenefitsContent() {
  const { host } = useServices();
  const gets = (kind: BenefitKind) => host.eligibleBenefits.some((benefit) => benefit === kind);
  return (
    <>
      {gets('SSI_SSDI') ? (
        <section className="tile" aria-labelledby="ssi-title">
          <h2 id="ssi-title">
            <Trans>Get SSI or SSDI up to 5 days early</Trans>
          </h2>
          <p>
            <Trans>Have your SSI or SSDI payments deposited to your Providers account and get them up to 5 days early.</Trans>
          </p>
        </section>
      ) : null}
      {gets('CTC') ? (
        <section className="tile" aria-labelledby="ctc-title">
          <h2 id="ctc-title">
            <Trans>Child Tax Credit</Trans>
          </h2>
          <p>
            <Trans>Get your tax refund and Child Tax Credit deposited to your card. The name on your return must match your account.</Trans>
          </p>
        </section>
      ) : null}
    </>
  );
}

export function FreeTaxFilingHelp() {
  const { host, session } = useServices();
  const locale = useSelector(session, (s) => s.context.locale);
  return (
    <p className="help-link">
      <button type="button" className="link-button" onClick={() => host.openUrl(freeTaxFilingUrl[locale])}>
        <Trans>File your taxes for free with IRS Free File</Trans>
        <span className="visually-hidden">
          {' '}
          <Trans>(opens outside the app)</Trans>
        </span>
      </button>
    </p>
  );
}
