import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';

/** Screens declared in the route table whose flows are not built yet say so plainly. */
export function NotYetAvailableView() {
  return (
    <section className="screen" aria-labelledby="not-yet-title">
      <h1 id="not-yet-title" tabIndex={-1}>
        <Trans>This screen is not available yet.</Trans>
      </h1>
      <p>
        <Trans>We are still building this part of the app. Nothing here has changed your account.</Trans>
      </p>
      <Link to="/home" className="button">
        <Trans>Go to home</Trans>
      </Link>
    </section>
  );
}
