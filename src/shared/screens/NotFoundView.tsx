import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useHeadingFocus } from '../components/useHeadingFocus.ts';

/** An address outside the route table (spec §2): say so, with the way home (whose guard decides the rest). */
export function NotFoundView() {
  const heading = useHeadingFocus();
  return (
    <section className="screen" aria-labelledby="not-found-title">
      <h1 id="not-found-title" ref={heading} tabIndex={-1}>
        <Trans>We can't find this page.</Trans>
      </h1>
      <p>
        <Trans>The address may be mistyped, or this page may no longer exist.</Trans>
      </p>
      <Link to="/home" className="button">
        <Trans>Go to home</Trans>
      </Link>
    </section>
  );
}
