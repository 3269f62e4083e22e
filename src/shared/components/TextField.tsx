import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: ReactNode;
  /** What to type, under the label, read with the field (its rule: "4 digits…"). */
  hint?: ReactNode;
  error?: ReactNode;
  /** A control beside the input (PasswordField's show toggle). */
  adornment?: ReactNode;
  /** The error is read out as it appears (a live region kept in place, empty until then). */
  announce?: boolean;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled input whose hint and error are tied to it for screen readers. */
export function TextField({ id, label, hint, error, adornment, announce = false, ...input }: TextFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].join(' ').trim() || undefined;
  const field = <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {adornment ? (
        <div className="input-row">
          {field}
          {adornment}
        </div>
      ) : (
        field
      )}
      {error || announce ? (
        <p id={errorId} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
