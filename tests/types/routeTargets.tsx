/**
 * Type test, checked by `npm run typecheck` and never run: a target outside spec §2's route table
 * does not compile. Should paths ever widen to `string` again, each `@ts-expect-error` below is
 * unused and the typecheck fails.
 */
import { getRouteApi, Link, redirect, useNavigate, useRouter } from '@tanstack/react-router';

export function UnknownLink() {
  // @ts-expect-error: no such route.
  return <Link to="/definitely-not-a-route">Nowhere</Link>;
}

export function unknownRedirect() {
  // @ts-expect-error: no such route.
  return redirect({ to: '/definitely-not-a-route' });
}

export function useUnknownNavigation() {
  const navigate = useNavigate();
  const router = useRouter();
  return () => {
    // @ts-expect-error: no such route.
    void navigate({ to: '/definitely-not-a-route' });
    // @ts-expect-error: no such route.
    void router.navigate({ to: '/definitely-not-a-route' });
  };
}

export function unknownRouteApi() {
  // @ts-expect-error: no such route id.
  return getRouteApi('/definitely-not-a-route');
}

export function wrongTargets() {
  return [
    // @ts-expect-error: sign-in's path has its optional step; "/signin" alone is no route.
    redirect({ to: '/signin' }),
    // @ts-expect-error: a step is a string in the URL.
    redirect({ to: '/order-card/{-$step}', params: { step: 2 } }),
    // @ts-expect-error: the activation route takes isReplacement as 'true' only.
    redirect({ to: '/activate/{-$step}', params: { step: '1' }, search: { isReplacement: 'yes' } }),
  ];
}
