import { useEffect, useRef } from 'react';

/** The step's heading takes focus when the step appears, so the new step is announced. */
export function useHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}
