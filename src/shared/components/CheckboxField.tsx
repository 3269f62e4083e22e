import type { InputHTMLAttributes, ReactNode } from 'react';
import './checkboxField.css';

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  id: string;
  label: ReactNode;
  error?: ReactNode;
};

/** A checkbox with its label beside it (the whole row is the touch target) and a tied error. */
export function CheckboxField({ id, label, error, ...input }: CheckboxFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="checkbox-field">
      <input
        id={id}
        type="checkbox"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
