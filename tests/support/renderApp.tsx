/** Renders the real app (router, route table, session, views) over a fake card API. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, RouterProvider, type AnyRoute } from '@tanstack/react-router';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { beforeAll, expect, vi } from 'vitest';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import type { SessionInput } from '../../machines/session/session.ts';
import type { ErrorReport } from '../../contract/analytics/types.ts';
import type { Host } from '../../src/shared/host/host.ts';
import { createApp } from '../../src/app/createApp.ts';
import { routeTree } from '../../src/app/routes.tsx';
import { ServicesProvider } from '../../src/app/services.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';
import { createFakeCardApi } from './fakeCardApi.ts';
import { slowAnswerInTests } from './replayClock.ts';

export const signedOut: SessionInput = {
  accessToken: null,
  refreshToken: null,
  fingerprint: 'fingerprint-1',
  deviceUUID: 'device-1',
  isInternal: false,
  ebtAccountId: null,
  locale: 'en',
  registrationDraft: null,
};

export const locked: SessionInput = { ...signedOut, refreshToken: 'refresh-1' };
export const active: SessionInput = { ...locked, accessToken: 'access-1' };

/** A host that records what the app asks of it (a standalone browser, unless `embedded`). */
export function recordingHost(overrides: Partial<Host> = {}) {
  const asked: { openUrl: string[]; copyText: string[]; returnToHostRoute: string[] } = {
    openUrl: [],
    copyText: [],
    returnToHostRoute: [],
  };
  const host: Host = {
    embedded: false,
    openUrl: (url) => void asked.openUrl.push(url),
    copyText: async (text) => void asked.copyText.push(text),
    returnToHostRoute: null,
    eligibleBenefits: [],
    actor: null,
    sendSitevars: () => {},
    providersUuid: null,
    companionAccessToken: async () => null,
    signInNotice: null,
    ...overrides,
  };
  return { host, asked };
}

export type RenderOptions = {
  /** Where the last-known balance and activity are kept (none by default: nothing is kept). */
  storage?: Storage;
  /** What GET /experiments answers at start: flags, null for 404 (the default), or 'pending' to answer in the test. */
  experiments?: ExperimentFlags | null | 'pending';
  host?: Host;
  /** The history entry's state at `path`, as a reload finds it (what a screen kept there before). */
  historyState?: Record<string, unknown>;
};

/** The lazy views of a route and of every route under it. */
function viewsOf(route: AnyRoute): { preload?: () => Promise<void> | undefined }[] {
  const children = Object.values((route.children ?? {}) as Record<string, AnyRoute>);
  return [route.options.component ?? {}, ...children.flatMap(viewsOf)];
}

// The code of every screen, loaded before a file's first test (a hook, under hookTimeout). Views load
// lazily, and the first import of one compiles its whole module graph: seconds on a loaded machine,
// which a check's short wait for the screen (findBy…) must not race.
beforeAll(() => Promise.all(viewsOf(routeTree).map((view) => view.preload?.())));

export async function renderApp(path: string, initial: SessionInput = signedOut, options: RenderOptions = {}) {
  await activateLocale(initial.locale);
  const cardApi = createFakeCardApi();
  const history = createMemoryHistory({ initialEntries: [path] });
  if (options.historyState) history.replace(path, options.historyState);
  const tracked: { name: string; properties: Record<string, unknown> }[] = [];
  const reports: Pick<ErrorReport, 'level' | 'message'>[] = [];
  const app = createApp({
    initial,
    embedded: options.host?.embedded ?? false,
    host: options.host ?? recordingHost().host,
    errors: {
      warning: (message) => void reports.push({ level: 'warning', message }),
      error: (message) => void reports.push({ level: 'error', message }),
    },
    guardsEnabled: true,
    history,
    fetcher: cardApi.fetcher,
    storage: options.storage ?? null,
    slowAnswerMs: slowAnswerInTests,
    analyticsTransport: {
      send: async (batch) => void tracked.push(...batch.events),
      beacon: () => {},
    },
  });
  const experiments = options.experiments === undefined ? null : options.experiments;
  if (experiments !== 'pending') {
    await vi.waitFor(() => cardApi.isWaiting('/api/v1/experiments') || Promise.reject(new Error('no experiments call')));
    if (experiments) cardApi.answer('/api/v1/experiments', { statusCode: 0, flags: experiments });
    else cardApi.answer('/api/v1/experiments', { statusCode: 3 }, 404);
  }
  // Keys follow one another with no timer between them: React's update for each is flushed inside
  // user-event's act(), and a timer, on a replay's fake clock (replayClock.ts) too, only added time.
  // No pointer-events check: jsdom has none of the app's CSS (and src/ sets no inline pointer-events),
  // so the check only computed jsdom's default styles up every clicked element's ancestors, a sixth of
  // a flow's CPU. Playwright clicks through the real stylesheet.
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  await act(async () => {
    render(
      <I18nProvider i18n={i18n}>
        <ServicesProvider services={app.services}>
          <RouterProvider router={app.router} />
        </ServicesProvider>
      </I18nProvider>,
    );
  });
  // No wait for a first screen: a route whose loader asks the card API (home data) shows nothing
  // until the test answers. Waiting for <main> there waited for the router's spinner (100 ms), which
  // then stays at least 200 ms: 0.3 s of every such test, and not what it checks.
  return { ...app, cardApi, user, tracked, reports };
}

/** Every alert on the screen, as one text. */
export const alertText = () =>
  screen
    .queryAllByRole('alert')
    .map((element) => element.textContent)
    .join(' ');

/** The tab's title says what the screen's heading says (WCAG 2.2 SC 2.4.2), in English. */
export const expectTabTitle = (heading: string) => waitFor(() => expect(document.title).toBe(`${heading} · Providers card`));
