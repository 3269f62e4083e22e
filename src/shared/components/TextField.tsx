import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: ReactNode;
  error?: ReactNode;
  /** A control beside the input (PasswordField's show toggle). */
  adornment?: ReactNode;
  /** The error is read out as it appears (a live region kept in place, empty until then). */
  announce?: boolean;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled input whose error is tied to it for screen readers. */
export function TextField({ id, label, error, adornment, announce = false, ...input }: TextFieldProps) {
  const errorId = `${id}-error`;
  const field = <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
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
