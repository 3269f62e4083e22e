/**
 * Home as the companion app shows it, through the real router: the experiment that moves /home to
 * /home2, content for the benefits the host reports, and what home asks of its host (copy, open a
 * link, go back to the host, ask for notifications).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { flagsOff } from '../../../machines/experiments/experiments.ts';
import { hostMachine, type HostConnection } from '../../../machines/host/host.ts';
import { freeTaxFilingUrl } from '../../../src/features/home/links.ts';
import type { NotificationPermission } from '../../../contract/hostProtocol.ts';
import { active, recordingHost, renderApp } from '../../support/renderApp.tsx';

const home = {
  statusCode: 0,
  accountOverview: {
    balance: 12_345,
    onHold: 0,
    cards: [
      { id: 'v1', type: 'VIRTUAL', status: 'ACTIVE', frozen: false, isActive: true, isPending: false, lastFour: '4821' },
      { id: 'p1', type: 'PHYSICAL', status: 'SHIPPED', frozen: false, isActive: false, isPending: true, lastFour: '7390' },
    ],
    transactions: [],
    prn: '400012345678',
    flags: { hasFunded: true, hasFundedAnyKind: true },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: 'ebt_rewards_test_group',
  pendingCard: null,
  virtualCard: { id: 'v1' },
  prn: '400012345678',
  hasFundedAnyKind: true,
};

async function answerHome(app: Awaited<ReturnType<typeof renderApp>>) {
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', home);
  await screen.findByTestId('balance');
}

/**
 * On a failure, what else the app did: the notifications test once got "There was an unexpected
 * error" instead (on a busy whole-suite run, not reproduced since), and its log was lost. Which call,
 * and whether the error modal or the route's error view said it, tells where to look.
 */
async function explained<T>(app: Awaited<ReturnType<typeof renderApp>>, found: Promise<T>): Promise<T> {
  try {
    return await found;
  } catch (error) {
    const calls = app.cardApi.requests.map((request) => `${request.path}${app.cardApi.isWaiting(request.path) ? ' (waiting)' : ''}`);
    const modal = app.session.getSnapshot().matches({ errorModal: 'open' });
    const errorView = screen.queryByText('Something went wrong.') !== null;
    throw new Error(
      `${(error as Error).message.split('\n')[0]}\ncalls: ${calls.join(', ')}\nerror modal: ${modal}, route error view: ${errorView}\nreports: ${JSON.stringify(app.reports)}`,
    );
  }
}

/** A host actor already connected, as startEmbedded leaves it. */
function connectedHost(permission: HostConnection['notificationPermission'], grant: NotificationPermission) {
  const connection: HostConnection = {
    savedState: null,
    deviceId: 'device-from-host',
    notificationPermission: permission,
    parentApp: { uuid: null, authEmail: null, authSource: null, eligibleBenefits: [], language: null, ebtLink: { ebtaccountId: null, uid: null } },
  };
  let asked = 0;
  let answer = () => {};
  const actor = createActor(
    hostMachine.provide({
      actors: {
        connectToHost: fromPromise(async () => connection),
        // The host answers when the test says so (`answer`): the phone's permission dialog is up meanwhile.
        requestNotificationPermission: fromPromise(async (): Promise<NotificationPermission> => {
          asked += 1;
          await new Promise<void>((resolve) => (answer = resolve));
          return grant;
        }),
      },
    }),
  ).start();
  return { actor, asked: () => asked, answer: () => answer() };
}

describe('experiments on the route table', () => {
  it('/home waits for the experiment config, then goes to /home2 when showNewDebitDetails is on', async () => {
    const app = await renderApp('/home', active, { experiments: 'pending' });
    // The route has started (it asks for the account early) and stays on /home while the config is out.
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
    expect(app.cardApi.isWaiting('/api/v1/experiments')).toBe(true);
    expect(app.router.state.location.pathname).toBe('/home');

    app.cardApi.answer('/api/v1/experiments', { statusCode: 0, flags: { ...flagsOff, showNewDebitDetails: true } });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home2'));
    await answerHome(app);
    // /home asked for the account while it waited for the config; /home2 showed that answer.
    expect(app.cardApi.requests.filter((request) => request.path === '/api/v1/home')).toHaveLength(1);
    const details = screen.getByRole('region', { name: 'Debit card details' });
    expect(within(details).getByText('Ready to use.')).toBeTruthy();
    expect(within(details).getByText('Activate it when it arrives to start using it.')).toBeTruthy();
    // The cards are listed once: in the details, not also under "Your cards".
    expect(screen.queryByRole('heading', { name: 'Your cards' })).toBeNull();
  });

  it('stays on /home without the debit-details panel when the config does not exist (404)', async () => {
    const app = await renderApp('/home', active, { experiments: null });
    await answerHome(app);
    expect(app.router.state.location.pathname).toBe('/home');
    expect(screen.queryByRole('region', { name: 'Debit card details' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Your cards' })).toBeTruthy();
  });

  it('reports a failed config load, keeps every flag off and still shows home', async () => {
    const app = await renderApp('/home', active, { experiments: 'pending' });
    app.cardApi.answer('/api/v1/experiments', { statusCode: 5 }, 500);
    await answerHome(app);
    expect(app.router.state.location.pathname).toBe('/home');
    expect(app.reports).toContainEqual({ level: 'error', message: 'Experiment config failed to load' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends /manage-card to /manage-cards when the virtual-cards experiment is on', async () => {
    const app = await renderApp('/manage-card', active, { experiments: { ...flagsOff, virtualCards: true } });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/manage-cards'));
  });
});

describe('home and its host', () => {
  it('copies the account number through the host and says so', async () => {
    const { host, asked } = recordingHost();
    const app = await renderApp('/home', active, { host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: 'Copy account number' }));
    expect(asked.copyText).toEqual(['400012345678']);
    expect(await screen.findByText('Account number copied.')).toBeTruthy();
  });

  it('says so when copying fails', async () => {
    const { host } = recordingHost({ copyText: () => Promise.reject(new Error('denied')) });
    const app = await renderApp('/home', active, { host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: 'Copy account number' }));
    expect(await screen.findByText("We couldn't copy the account number.")).toBeTruthy();
  });

  it('opens free tax filing help outside the app', async () => {
    const { host, asked } = recordingHost();
    const app = await renderApp('/home', active, { host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: /File your taxes for free with IRS Free File/ }));
    expect(asked.openUrl).toEqual([freeTaxFilingUrl.en]);
  });

  it('opens the Spanish IRS Free File page for a reader in Spanish', async () => {
    const { host, asked } = recordingHost();
    const app = await renderApp('/home', { ...active, locale: 'es' }, { host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: /Declare sus impuestos gratis con IRS Free File/ }));
    expect(asked.openUrl).toEqual(['https://www.irs.gov/es/filing/irs-free-file-do-your-taxes-for-free']);
  });

  it('shows SSI/SSDI and CTC content only for those benefits', async () => {
    const app = await renderApp('/home', active, { host: recordingHost({ eligibleBenefits: ['EBT', 'SSI_SSDI'] }).host });
    await answerHome(app);
    expect(screen.getByRole('region', { name: 'Get SSI or SSDI up to 5 days early' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Child Tax Credit' })).toBeNull();
  });

  it('has no way back to a host when standalone', async () => {
    const app = await renderApp('/home', active);
    await answerHome(app);
    expect(screen.queryByRole('button', { name: /Back to benefits/ })).toBeNull();
  });

  it('goes back to the host home screen', async () => {
    const routes: string[] = [];
    const { host } = recordingHost({ embedded: true, returnToHostRoute: (route) => void routes.push(route) });
    const app = await renderApp('/home', active, { host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: /Back to benefits/ }));
    expect(routes).toEqual(['home']);
  });

  it('asks the host for notifications once, then says they are on where the prompt was, with the focus', async () => {
    const hostActor = connectedHost('NOT_YET_REQUESTED', 'ENABLED');
    const app = await renderApp('/home', active, { host: recordingHost({ embedded: true, actor: hostActor.actor }).host });
    await answerHome(app);
    const prompt = screen.getByRole('button', { name: 'Turn on notifications' });
    await app.user.click(prompt);
    // While the phone asks: unavailable (not disabled, so the focus stays on it), and a second press asks nothing more.
    await waitFor(() => expect(prompt.getAttribute('aria-disabled')).toBe('true'));
    await app.user.click(prompt);
    expect(hostActor.asked()).toBe(1);
    expect(document.activeElement).toBe(prompt);

    hostActor.answer();
    const on = await explained(app, screen.findByText("Notifications are on. We'll let you know when a deposit lands or your card is used."));
    expect(on.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(on));
  });

  it('after an ask that decided nothing, a later change in the phone is not taken as its answer', async () => {
    // The phone's dialog was dismissed: permission not requested still, the prompt stays.
    const hostActor = connectedHost('NOT_YET_REQUESTED', 'NOT_YET_REQUESTED');
    const app = await renderApp('/home', active, { host: recordingHost({ embedded: true, actor: hostActor.actor }).host });
    await answerHome(app);
    const prompt = screen.getByRole('button', { name: 'Turn on notifications' });
    await app.user.click(prompt);
    hostActor.answer();
    await waitFor(() => expect(prompt.getAttribute('aria-disabled')).toBe('false'));

    // Turned on later in the phone's settings: the prompt goes, and nothing speaks for it or takes the focus.
    hostActor.actor.send({ type: 'host.notificationPermissionChanged', permission: 'ENABLED' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull());
    expect(screen.queryByText(/Notifications are on/)).toBeNull();
  });

  it('a press as the prompt appears is its ask: the answer takes the focus', async () => {
    const hostActor = connectedHost('NOT_YET_REQUESTED', 'DISABLED');
    // Pressed as soon as the prompt is drawn, before React has run that render's effects (a quick tap on
    // a slow phone): an effect left from that render once undid the press.
    let press = () => {};
    const pressed = new Promise<void>((resolve) => (press = resolve));
    const drawn = new MutationObserver(() => {
      const prompt = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Turn on notifications');
      if (!prompt) return;
      drawn.disconnect();
      prompt.focus();
      prompt.click();
      press();
    });
    drawn.observe(document.body, { childList: true, subtree: true });
    try {
      const app = await renderApp('/home', active, { host: recordingHost({ embedded: true, actor: hostActor.actor }).host });
      await answerHome(app);
      await pressed;
      expect(hostActor.asked()).toBe(1);
      hostActor.answer();
      const off = await explained(app, screen.findByText("Notifications are off. You can turn them on in your phone's settings."));
      await waitFor(() => expect(document.activeElement).toBe(off));
    } finally {
      // Never left to press a button of a later test.
      drawn.disconnect();
    }
  });

  it('tells the cardholder where to turn notifications on when they said no, with the focus', async () => {
    const hostActor = connectedHost('NOT_YET_REQUESTED', 'DISABLED');
    const app = await renderApp('/home', active, { host: recordingHost({ embedded: true, actor: hostActor.actor }).host });
    await answerHome(app);
    await app.user.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    hostActor.answer();
    const off = await screen.findByText("Notifications are off. You can turn them on in your phone's settings.");
    await waitFor(() => expect(document.activeElement).toBe(off));
  });
});
