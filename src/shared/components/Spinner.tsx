import { useLingui } from '@lingui/react/macro';

/** Shown by the router only when a view takes longer than 100 ms to arrive. */
export function Spinner() {
  const { t } = useLingui();
  return (
    <div className="spinner-area" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t`Loading`}</span>
    </div>
  );
}
