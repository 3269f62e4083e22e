/**
 * GET /home asked for while home, the app's first screen, is still loading (its guard waits for the
 * experiment config, then its code loads), instead of once the screen has rendered: on a slow network
 * the balance shows a round trip sooner. The home screen shown next takes that call, once, or its
 * answer when it has already come (the account then shows in the screen's first render). Every later
 * visit asks for itself, and a call its first screen left untaken is dropped then, so an answer from
 * before is never shown as fresh.
 */
import type { HomeAnswer } from '../../../contract/home/types.ts';
import type { AppContext } from '../../app/context.ts';
import type { Api } from '../../shared/api/client.ts';
import type { LastKnown } from '../../../machines/shared/lastKnown.ts';
import { sessionLastKnown } from '../../shared/offline/lastKnown.ts';

/** The last-known home data kept on this phone for the signed-in cardholder (none embedded). */
export function keptHome({ offlineStorage, session }: Pick<AppContext, 'offlineStorage' | 'session'>): LastKnown<HomeAnswer> | null {
  const { lastKnown, owner } = sessionLastKnown(offlineStorage, session);
  return lastKnown.home.read(owner);
}

/** The first screen's call, its answer once it has come, and whether a screen has shown that answer. */
type EarlyCall = { call: Promise<HomeAnswer>; answer?: HomeAnswer; shown?: boolean };

/** One call per app (its API client): the first screen's. */
const earlyCalls = new WeakMap<Api, EarlyCall>();

/** For the home routes' guards: on the app's first screen asks early, on any later one drops what is left. */
export function askForHomeEarly(context: AppContext, preload: boolean): void {
  if (preload) return;
  if (context.previousLocation() !== undefined) {
    earlyCalls.delete(context.api);
    return;
  }
  // Already asked: the same first screen loading again (the experiment's redirect, the auth modal).
  if (earlyCalls.has(context.api)) return;
  // With a last-known copy to show, a missing answer is said on the screen, not in the error modal.
  const early: EarlyCall = { call: context.api.getHome({ suppressErrorModal: keptHome(context) !== null }) };
  // The screen that takes the call handles its failure; until then it is not unhandled.
  early.call.then((answer) => (early.answer = answer), () => {});
  earlyCalls.set(context.api, early);
}

/** Whether an early call waits for the home screen: only on the app's first screen. */
export function hasEarlyHome(api: Api): boolean {
  return earlyCalls.has(api);
}

/**
 * The early call's answer when it has already come, for the home screen's first render; null when it
 * has not (or there is none). The same screen may ask twice (React may render it twice): it gets the
 * same answer, which is never taken as a call after.
 */
export function earlyAnswer(api: Api): HomeAnswer | null {
  const early = earlyCalls.get(api);
  if (!early?.answer) return null;
  early.shown = true;
  return early.answer;
}

/** The early call, for the home screen's first load; undefined when there is none (any later load) or its answer was shown. */
export function takeEarlyHome(api: Api): Promise<HomeAnswer> | undefined {
  const early = earlyCalls.get(api);
  earlyCalls.delete(api);
  return early && !early.shown ? early.call : undefined;
}
