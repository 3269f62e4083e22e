/** The activity screens (spec §2 /transactions, /transactions/detail), under the access-token guard. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { accessTokenScreens } from '../../app/layoutRoutes.ts';
import { ActivityRoute } from './ActivityRoute.tsx';

const transactionsRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/transactions',
  component: ActivityRoute,
});
const transactionsListRoute = createRoute({
  getParentRoute: () => transactionsRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./TransactionsView.tsx'), 'TransactionsView'),
});
const transactionDetailRoute = createRoute({
  getParentRoute: () => transactionsRoute,
  path: 'detail',
  validateSearch: (search: Record<string, unknown>): { id?: string } => ({ id: typeof search.id === 'string' ? search.id : undefined }),
  component: lazyRouteComponent(() => import('./TransactionDetailView.tsx'), 'TransactionDetailView'),
});

export const activityRoutes = [transactionsRoute.addChildren([transactionsListRoute, transactionDetailRoute])] as const;
