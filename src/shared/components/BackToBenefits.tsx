import { Trans } from '@lingui/react/macro';
import { useServices } from '../../app/services.tsx';

/** Inside the companion app, the way back to it; nothing when the app runs on its own. */
export function BackToBenefits() {
  const { host } = useServices();
  if (!host.returnToHostRoute) return null;
  return (
    <button type="button" className="link-button back-to-host" onClick={() => host.returnToHostRoute?.('home')}>
      <span aria-hidden="true">‹ </span>
      <Trans>Back to benefits</Trans>
    </button>
  );
}
