/** The network as a phone on a weak signal has it. */
import { expect, type Locator, type Page, type Request, type Route } from '@playwright/test';

/**
 * `handle` takes the first request `url` matches; the route stays registered (the page keeps its
 * interception on) and passes the later ones on untouched (`fallback`). Not
 * `{ times: 1 }`: in Chromium a request sent as such a route is dropped can hang (microsoft/playwright
 * issue 41802, open), and the request right after is often the one a test is about. Fits the rare
 * stall of the cards read again after a lock's lost answer ("Checking your card…" for 15 s, under
 * load only), which was never caught in the act.
 */
export async function routeOnce(page: Page, url: Parameters<Page['route']>[0], handle: (route: Route, request: Request) => Promise<void>): Promise<void> {
  let used = false;
  await page.route(url, async (route, request) => {
    if (used) return route.fallback();
    used = true;
    await handle(route, request);
  });
}

/**
 * Calls to `pathname` go out and no answer comes back (a weak signal), until `signalBack` is called:
 * the calls then pending stay unanswered (each gives up at its own limit), later ones go through.
 */
export async function answerNothing(page: Page, pathname: string): Promise<{ signalBack: () => void }> {
  let weak = true;
  await page.route(
    (url) => url.pathname === pathname,
    (route) => (weak ? undefined : route.fallback()),
  );
  return { signalBack: () => void (weak = false) };
}

/**
 * The next call to `pathname` reaches the server, which does its work, and its answer never reaches
 * the phone (the connection drops on the way back). Calls after it go through.
 */
export async function loseAnswerOnce(page: Page, pathname: string): Promise<void> {
  await routeOnce(
    page,
    (url) => url.pathname === pathname,
    async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    },
  );
}

/**
 * A thumb's double tap on `button` while the call it sends waits for its answer (held until
 * `release`): the form's message goes as the call starts and what was below moves up, so the second
 * tap lands on whatever is then where the first was. Answers the spot tapped, and `release`, which
 * lets the held call go on to the server.
 */
export async function doubleTapWhileAnswerHeld(page: Page, button: Locator, pathname: string): Promise<{ spot: { x: number; y: number }; release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await routeOnce(
    page,
    (url) => url.pathname === pathname,
    async (route) => {
      await held;
      await route.continue();
    },
  );
  const box = (await button.boundingBox())!;
  const spot = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === pathname);
  await page.mouse.click(spot.x, spot.y);
  await sent;
  await expect(page.locator('form[aria-busy="true"]')).toBeAttached();
  await page.mouse.click(spot.x, spot.y);
  return { spot, release };
}

/** Whether `spot` lies inside what `locator` draws. */
export async function isOver(locator: Locator, spot: { x: number; y: number }): Promise<boolean> {
  const box = (await locator.boundingBox())!;
  return spot.x >= box.x && spot.x <= box.x + box.width && spot.y >= box.y && spot.y <= box.y + box.height;
}
