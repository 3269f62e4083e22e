import type { ReactNode, Ref } from 'react';

/**
 * A button that starts a call: while it runs, `aria-disabled`, not `disabled`, for the reason
 * SubmitButton is (the keyboard's focus stays on it), and a press does nothing. SubmitButton does the
 * same for a form's submit button on its own: it loads with the sign-in screen, this in the account
 * screens' file (vite.config.ts; the screens that use it outside the account load that file too), and
 * sharing one file would put one of them on both first loads.
 */
export function ActionButton({
  ref,
  unavailable,
  onPress,
  secondary = false,
  label,
  children,
}: {
  ref?: Ref<HTMLButtonElement>;
  unavailable: boolean;
  onPress: () => void;
  secondary?: boolean;
  /** Its accessible name, when the visible text needs more to stand alone (which month's PDF). */
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className={secondary ? 'button button-secondary' : 'button'}
      aria-label={label}
      aria-disabled={unavailable}
      onClick={() => unavailable || onPress()}
    >
      {children}
    </button>
  );
}
