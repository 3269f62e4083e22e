import { Trans, useLingui } from '@lingui/react/macro';
import './stepIndicator.css';

/**
 * Where the user is in a multi-step flow (docs/architecture.md §9: progress always visible; spec §9:
 * default max 5 steps). "Step N of M" as text, and a list with one item per step, the current
 * one marked with aria-current="step" and each named for screen readers.
 */
export function StepIndicator({ current, total = 5 }: { current: number; total?: number }) {
  const { t } = useLingui();
  const steps = Array.from({ length: total }, (_, index) => index + 1);
  return (
    <div className="step-indicator">
      <p className="step-indicator-text">
        <Trans>
          Step {current} of {total}
        </Trans>
      </p>
      <ol className="step-indicator-steps" aria-label={t`Progress`}>
        {steps.map((step) => (
          <li
            key={step}
            className={step < current ? 'step-done' : step === current ? 'step-current' : 'step-todo'}
            aria-current={step === current ? 'step' : undefined}
          >
            <span className="visually-hidden">
              {step < current ? t`Step ${step}, done` : step === current ? t`Step ${step}, current` : t`Step ${step}`}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
