/** Renders the real app (router, route table, session, views) over a fake card API. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionInput } from '../../machines/session.ts';
import { createApp } from '../../src/app/createApp.ts';
import { ServicesProvider } from '../../src/app/services.tsx';
import { activateLocale } from '../../src/i18n/locale.ts';
import { createFakeCardApi } from './fakeCardApi.ts';

export const signedOut: SessionInput = {
  accessToken: null,
  refreshToken: null,
  fingerprint: 'fingerprint-1',
  deviceUUID: 'device-1',
  isInternal: false,
  ebtAccountId: null,
  locale: 'en',
};

export const locked: SessionInput = { ...signedOut, refreshToken: 'refresh-1' };
export const active: SessionInput = { ...locked, accessToken: 'access-1' };

export async function renderApp(path: string, initial: SessionInput = signedOut) {
  await activateLocale(initial.locale);
  const cardApi = createFakeCardApi();
  const tracked: { name: string; properties: Record<string, unknown> }[] = [];
  const app = createApp({
    initial,
    embedded: false,
    guardsEnabled: true,
    history: createMemoryHistory({ initialEntries: [path] }),
    fetcher: cardApi.fetcher,
    analyticsTransport: {
      send: async (events) => void tracked.push(...events),
      beacon: () => {},
    },
  });
  const user = userEvent.setup();
  await act(async () => {
    render(
      <I18nProvider i18n={i18n}>
        <ServicesProvider services={app.services}>
          <RouterProvider router={app.router} />
        </ServicesProvider>
      </I18nProvider>,
    );
  });
  await screen.findByRole('main');
  return { ...app, cardApi, user, tracked };
}
