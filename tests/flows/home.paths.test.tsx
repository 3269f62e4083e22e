/** Generated path tests over the home-data chart, replayed against the real app and router. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { homeMachine } from '../../machines/home/home.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { active, renderApp } from '../support/renderApp.tsx';

const homePath = '/api/v1/home';
const home: HomeAnswer = {
  statusCode: 0,
  accountOverview: {
    balance: 123456,
    onHold: 0,
    cards: [{ id: 'c1', type: 'VIRTUAL', status: 'ACTIVE', frozen: false, isActive: true, isPending: false, lastFour: '4821' }],
    transactions: [
      {
        id: 't1',
        amount: -4512,
        timestamp: '2026-11-20T15:00:00Z',
        kind: 'purchase',
        status: 'posted',
        counterparty: 'Save Mart',
        location: 'Fresno, CA',
        heldUntil: null,
      },
    ],
    prn: '400012345678',
    flags: { hasFunded: true, hasFundedAnyKind: true },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: null,
  pendingCard: null,
  virtualCard: { id: 'c1' },
  prn: '400012345678',
  hasFundedAnyKind: true,
};

const events = [
  { type: 'xstate.done.actor.getHome', output: home },
  { type: 'xstate.error.actor.getHome', error: new Error('no statusCode') },
  { type: 'user.retry' },
  { type: 'user.refresh' },
];

const run = generatePaths(homeMachine, events);
type Ctx = Awaited<ReturnType<typeof renderApp>>;

describe('home chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(homeMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(homeMachine, run).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: () => renderApp('/home', active),
        events: {
          'xstate.done.actor.getHome': async ({ cardApi }) => {
            await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            cardApi.answer(homePath, home);
          },
          'xstate.error.actor.getHome': async ({ cardApi, user }) => {
            await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            cardApi.fail(homePath);
            // No statusCode: the generic error modal opens; the user closes it.
            await user.click(await screen.findByRole('button', { name: 'OK' }));
          },
          'user.retry': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Try again' })),
          'user.refresh': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Refresh' })),
        },
        states: [
          {
            when: (s) => s.matches('loading') && s.context.home === null,
            then: async ({ cardApi }) => {
              expect(await screen.findByRole('status', { name: 'Loading your account' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            },
          },
          {
            when: (s) => s.matches('loading'),
            then: async () => {
              expect(await screen.findByRole('button', { name: 'Refreshing…' })).toBeTruthy();
              expect(screen.getByText('$1,234.56')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('ready'),
            then: async () => {
              expect(await screen.findByText('$1,234.56')).toBeTruthy();
              expect(screen.getByText('Account ••••5678')).toBeTruthy();
              expect(screen.getByText('Purchase at Save Mart')).toBeTruthy();
              expect(screen.getByText('-$45.12')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async () => {
              expect(await screen.findByText("We couldn't load your account. Check your connection and try again.")).toBeTruthy();
            },
          },
        ],
      });
    },
  );
});
