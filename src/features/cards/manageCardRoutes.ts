/**
 * Managing cards (spec §2): /manage-card (the cards screen; /manage-cards when the virtual-cards
 * experiment is on), /manage-cards (query initialSlide: the card it opens on, from 0) and
 * /reset-pin/:step? (query returnTo: where a PIN set returns, only ever a path of this app; cardId and
 * pin say which card and which PIN). Under the access-token guard. Views load lazily, as one module;
 * this one stays tiny (it is in every screen's first load).
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import type { PinKind } from '../../../contract/cards/types.ts';
import { safeRedirect } from '../../app/guards.ts';
import { accessTokenScreens, experimentFlags } from '../../app/layoutRoutes.ts';

const screens = () => import('./manageCardScreens.ts');

const manageCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-card',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).virtualCards) throw redirect({ to: '/manage-cards', replace: true });
  },
  component: lazyRouteComponent(screens, 'ManageCardScreen'),
});

const manageCardsRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-cards',
  // Every key is given (undefined when refused): the router lays the validated search over the raw one.
  validateSearch: ({ initialSlide }: Record<string, unknown>): { initialSlide?: number } => {
    const slide = Number(initialSlide);
    return { initialSlide: Number.isInteger(slide) && slide >= 0 ? slide : undefined };
  },
  component: lazyRouteComponent(screens, 'ManageCardsScreen'),
});

export type ResetPinSearch = { returnTo?: string; cardId?: string; pin?: PinKind };

const resetPinRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/reset-pin/{-$step}',
  validateSearch: ({ returnTo, cardId, pin }: Record<string, unknown>): ResetPinSearch => ({
    returnTo: safeRedirect(returnTo),
    cardId: typeof cardId === 'string' ? cardId : undefined,
    pin: pin === 'atm' ? pin : undefined,
  }),
  component: lazyRouteComponent(screens, 'ResetPinView'),
});

export const manageCardRoutes = [manageCardRoute, manageCardsRoute, resetPinRoute] as const;
