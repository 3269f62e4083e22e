/**
 * An agreement's text in a modal dialog (machines/identity/agreementDocument.ts), opened from the
 * agreements step of registration and from Manage account. The native <dialog> traps focus, closes
 * on Escape and gives focus back to the button that opened it.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { fromPromise } from 'xstate';
import type { AgreementKind, AgreementLocale } from '../../../contract/identity/types.ts';
import { agreementDocumentMachine } from '../../../machines/identity/agreementDocument.ts';
import { useServices } from '../../app/services.tsx';
import { useModalDialog } from '../components/useModalDialog.ts';
import { failureMessage } from '../messages.ts';
import { identityCalls } from '../api/identityCalls.ts';
import './agreements.css';

/** The reader: `open(kind)` shows that agreement in the app's language; `dialog` goes once into the screen. */
export function useAgreementReader() {
  const { api } = useServices();
  const { i18n } = useLingui();
  const reader = useActorRef(
    agreementDocumentMachine.provide({
      actors: { loadAgreement: fromPromise(({ input }) => identityCalls(api).agreementDocument(input.kind, input.locale)) },
    }),
  );
  const open = (kind: AgreementKind) => reader.send({ type: 'user.open', kind, locale: (i18n.locale === 'es' ? 'es' : 'en') as AgreementLocale });
  return { open, dialog: <AgreementDialog reader={reader} /> };
}

function AgreementDialog({ reader }: { reader: ReturnType<typeof useActorRef<typeof agreementDocumentMachine>> }) {
  const { i18n } = useLingui();
  const state = useSelector(reader, (s) => s);
  const dialog = useModalDialog(state.hasTag('open'));
  const document = state.context.document;
  const title = useRef<HTMLHeadingElement>(null);
  const close = () => reader.send({ type: 'user.close' });
  return (
    <dialog ref={dialog} className="modal agreement-dialog" aria-labelledby="agreement-title" aria-busy={state.hasTag('busy')} onClose={close}>
      <h2 id="agreement-title" ref={title} tabIndex={-1}>
        {document ? document.title : <Trans>Agreement</Trans>}
      </h2>
      {state.hasTag('busy') ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : null}
      {state.hasTag('failed') ? (
        <div className="form-error" role="alert">
          <p>{i18n._(failureMessage())}</p>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              // Try again goes with its message: the title keeps the focus, and the text comes under it.
              title.current?.focus();
              reader.send({ type: 'user.retry' });
            }}
          >
            <Trans>Try again</Trans>
          </button>
        </div>
      ) : null}
      {document ? (
        <div className="agreement-text" lang={document.locale}>
          <p className="agreement-version">
            <Trans>Version {document.version}</Trans>
          </p>
          {document.sections.map((section) => (
            <section key={section.heading}>
              <h3>{section.heading}</h3>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))}
        </div>
      ) : null}
      <button type="button" className="button" onClick={close}>
        <Trans>Close</Trans>
      </button>
    </dialog>
  );
}
