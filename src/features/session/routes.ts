/** The session's screens (spec §2): sign-in, unlock and the two resets. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppContext } from '../../app/context.ts';
import { refreshTokenGuard } from '../../app/guards.ts';
import { rememberedSearch, rootRoute, toAuthScreen, tokensOf } from '../../app/layoutRoutes.ts';

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin/{-$step}',
  validateSearch: rememberedSearch,
  component: lazyRouteComponent(() => import('./signIn/SignInView.tsx'), 'SignInView'),
});

/** Unlock and reset-unlock-code need a refresh token, else sign in (keeping the remembered route). */
function needsRefreshToken({ context, search }: { context: AppContext; search: { redirect?: string } }): void {
  const decision = refreshTokenGuard(tokensOf(context), search.redirect, context);
  if (decision) throw toAuthScreen(decision);
}

const unlockRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unlock',
  validateSearch: rememberedSearch,
  beforeLoad: needsRefreshToken,
  component: lazyRouteComponent(() => import('./unlock/UnlockView.tsx'), 'UnlockView'),
});

const resetUnlockCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-unlock-code/{-$step}',
  validateSearch: rememberedSearch,
  beforeLoad: needsRefreshToken,
  component: lazyRouteComponent(() => import('./resetUnlockCode/ResetUnlockCodeView.tsx'), 'ResetUnlockCodeView'),
});

/** Public (spec §2); `then=signin` when sign-in sent the user here, so the flow ends there. */
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/{-$step}',
  validateSearch: (search: Record<string, unknown>): { then?: 'signin' } => ({ then: search.then === 'signin' ? 'signin' : undefined }),
  component: lazyRouteComponent(() => import('./resetPassword/ResetPasswordView.tsx'), 'ResetPasswordView'),
});

export const sessionRoutes = [signInRoute, unlockRoute, resetUnlockCodeRoute, resetPasswordRoute] as const;
