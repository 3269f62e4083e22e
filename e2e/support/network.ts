/** The network as a phone on a weak signal has it. */
import type { Page } from '@playwright/test';

/**
 * The next call to `pathname` reaches the server, which does its work, and its answer never reaches
 * the phone (the connection drops on the way back). Calls after it go through.
 */
export async function loseAnswerOnce(page: Page, pathname: string): Promise<void> {
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
}
