/**
 * Monthly statements (spec §2 /statements): one per month since the account opened, newest first,
 * each with its opening and closing balance (the current month's so far, and said so) and a button
 * that downloads its PDF in the reader's language. A list that fails to load is only reported (spec §8)
 * and the screen says so, with a retry.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Statement } from '../../../contract/statements/types.ts';
import { statementFileName } from '../../../contract/statements/types.ts';
import { type DownloadStatus, downloadStatusOf, statementsMachine } from '../../../machines/statements/statements.ts';
import { useServices } from '../../app/services.tsx';
import { ActionButton } from '../../shared/components/ActionButton.tsx';
import { Amount } from '../../shared/components/Amount.tsx';
import { formatMonth } from '../../shared/format/date.ts';
import { onEasternTime } from '../../shared/format/easternTime.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { formatDollars } from '../../shared/format/money.ts';
import { saveFile } from './statementFiles.ts';
import { reportLoadFailure, statementsCalls } from './statementsCalls.ts';
import '../../shared/components/detailList.css';
import './statements.css';
import { Skeleton } from '../../shared/components/Skeleton.tsx';
import { RetryNotice } from '../../shared/components/RetryNotice.tsx';

export function StatementsView() {
  const { t } = useLingui();
  const { api, session, errors } = useServices();
  const [calls] = useState(() => statementsCalls(api));
  // The language the PDF was asked in names its file too, even if the reader switches meanwhile.
  const downloadLocale = useRef<Locale>(session.getSnapshot().context.locale);
  const chart = useActorRef(
    statementsMachine.provide({
      actors: {
        getStatements: fromPromise(() => calls.getStatements()),
        // The language at the moment of the download: the reader may have switched it on this screen.
        downloadStatement: fromPromise(({ input }) => {
          downloadLocale.current = session.getSnapshot().context.locale;
          return calls.getStatementPdf(input.month, downloadLocale.current);
        }),
      },
      actions: {
        reportLoadFailure: (_, error) => reportLoadFailure(errors, error),
        saveStatement: (_, { month, file }) => saveFile(file, statementFileName(month, downloadLocale.current)),
      },
    }),
  );
  const locale = useSelector(session, (s) => s.context.locale);
  const state = useSelector(chart, (s) => s);
  const { statements, downloadMonth } = state.context;
  const busy = state.hasTag('busy');
  const download = downloadStatusOf(state);
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="screen" aria-labelledby="statements-title" aria-busy={busy}>
      <h1 id="statements-title" ref={heading} tabIndex={-1}>
        <Trans>Monthly statements</Trans>
      </h1>
      <p>
        <Trans>A statement for each month since you opened your account: your balances and every transaction, as a PDF.</Trans>
      </p>
      {/* The server's months are US Eastern (docs/decisions.md "Statements"); activity shows the phone's time. */}
      {onEasternTime() ? null : (
        <p className="statement-time-zone">
          <Trans>
            Statements use US Eastern Time (New York). In another time zone, a transaction near the end or the start of a month may be on the
            other month's statement, and its date there may be a day off from your activity.
          </Trans>
        </p>
      )}
      {state.hasTag('failed') ? (
        <RetryNotice advise focusOnRetry={heading} onRetry={() => chart.send({ type: 'user.retry' })}>
          <Trans>We couldn't load your statements.</Trans>
        </RetryNotice>
      ) : null}
      {busy ? <Skeleton label={t`Loading your statements`} /> : null}
      {state.hasTag('empty') ? (
        <p>
          <Trans>No statements yet. Your first one will cover the month you opened your account.</Trans>
        </p>
      ) : null}
      {statements.length > 0 ? (
        <ul className="statement-list">
          {statements.map((statement) => (
            <StatementRow
              key={statement.month}
              statement={statement}
              locale={locale}
              download={statement.month === downloadMonth ? download : null}
              anyDownloading={download === 'downloading'}
              onDownload={() => chart.send({ type: 'user.download', month: statement.month })}
              onRetry={() => chart.send({ type: 'user.retry' })}
            />
          ))}
        </ul>
      ) : null}
      <p className="screen-links">
        <Link to="/transactions">
          <Trans>Back to activity</Trans>
        </Link>
        <Link to="/home">
          <Trans>Back to home</Trans>
        </Link>
      </p>
    </section>
  );
}

/**
 * One month: its name, its balances, and its PDF's button; what became of its download is said under
 * the button (a polite status, or an alert with a retry).
 */
function StatementRow(props: {
  statement: Statement;
  locale: Locale;
  download: DownloadStatus;
  anyDownloading: boolean;
  onDownload: () => void;
  onRetry: () => void;
}) {
  const { statement, locale, download } = props;
  const { t } = useLingui();
  const heading = formatMonth(statement.month, locale, 'heading');
  const month = formatMonth(statement.month, locale, 'sentence');
  const downloadButton = useRef<HTMLButtonElement>(null);
  return (
    <li className="statement-row">
      <h2 className="statement-month">{heading}</h2>
      {statement.inProgress ? (
        <p className="statement-note">
          <Trans>This month is not over yet: these are your balances so far.</Trans>
        </p>
      ) : null}
      {statement.onHold > 0 ? <OnHoldNote onHold={formatDollars(statement.onHold)} /> : null}
      <dl className="detail-list statement-balances">
        <div>
          <dt>
            <Trans>Opening balance</Trans>
          </dt>
          <dd className="amount">
            <Amount cents={statement.openingBalance} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Closing balance</Trans>
          </dt>
          <dd className="amount">
            <Amount cents={statement.closingBalance} />
          </dd>
        </div>
      </dl>
      {/* Unavailable while any statement downloads. */}
      <ActionButton ref={downloadButton} secondary label={t`Download PDF for ${month}`} unavailable={props.anyDownloading} onPress={props.onDownload}>
        <Trans>Download PDF</Trans>
      </ActionButton>
      <p role="status" className="statement-download-status">
        {download === 'downloading' ? (
          <Trans>Downloading your statement for {month}…</Trans>
        ) : download === 'downloaded' ? (
          <Trans>Your statement for {month} has downloaded.</Trans>
        ) : null}
      </p>
      {download === 'failed' ? (
        <RetryNotice advise focusOnRetry={downloadButton} onRetry={props.onRetry}>
          <Trans>We couldn't download your statement for {month}.</Trans>
        </RetryNotice>
      ) : null}
    </li>
  );
}

/** Why the closing balance so far is above the available balance home shows. */
function OnHoldNote({ onHold }: { onHold: string }) {
  return (
    <p className="statement-note">
      <Trans>{onHold} is on hold for purchases that haven't settled yet.</Trans>{' '}
      <Trans>It is already out of your available balance, and counts in these balances once they settle.</Trans>
    </p>
  );
}
