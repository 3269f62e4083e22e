/**
 * The route's step param and a chart's step (docs/architecture.md §3, as registration does): the param is
 * a request fed to the chart as `user.goToStep`; the URL follows the chart. A step the chart moved to
 * is a new history entry (Back goes back a step); a step it refused is replaced by the one it shows.
 * Once the flow is finished (its receipt or its done screen), Back to one of its earlier steps goes on
 * back past them, to where the flow was opened from: each would only show the finished screen again.
 */
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';

export function routeStepOf(param: string | undefined): number {
  const step = Number(param ?? '1');
  return Number.isInteger(step) && step > 0 ? step : 1;
}

export function useStepParam(options: {
  routeStep: number;
  /** The chart's step; null while the URL must not follow (the flow is leaving the screen). */
  machineStep: number | null;
  /**
   * The chart's step as it is now, read from the actor: a step the route asked for that the chart
   * took is then followed at once, not fought with the step of the render before it.
   */
  currentStep?: () => number | null;
  goToStep: (step: number) => void;
  showStep: (step: number, replace: boolean) => void;
  /** The flow is over: no earlier step can be shown again. */
  finished?: boolean;
}) {
  const { routeStep, machineStep, currentStep, goToStep, showStep, finished = false } = options;
  const { history } = useRouter();
  const shown = useRef<number | null>(null);
  const routeSeen = useRef(routeStep);
  useEffect(() => {
    goToStep(routeStep);
  }, [routeStep]);
  useEffect(() => {
    const wentBack = routeStep < routeSeen.current;
    routeSeen.current = routeStep;
    // Back to an earlier step of a finished flow (whose last screen may have no step of its own).
    if (finished && wentBack) return history.back();
    const step = currentStep ? currentStep() : machineStep;
    if (step === null) return;
    const moved = shown.current !== null && shown.current !== step;
    shown.current = step;
    if (step !== routeStep) showStep(step, !moved);
  }, [machineStep, routeStep]);
}
