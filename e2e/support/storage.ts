/** Puts core state into localStorage before the app starts, the way the app itself saves it. */
import type { Page } from '@playwright/test';
import type { Locale } from './catalog.ts';

export const storageKey = 'providers-card:state';

export type StoredState = {
  accessToken: string | null;
  refreshToken: string | null;
  locale: Locale;
};

/**
 * Seeds 'providers-card:state' (schemaVersion 1) once per tab, before the first document's scripts
 * run. A sessionStorage mark keeps reloads from overwriting what the app saved since.
 */
export async function seedStoredState(page: Page, state: StoredState): Promise<void> {
  const value = JSON.stringify({
    schemaVersion: 1,
    accessToken: state.accessToken,
    refreshToken: state.refreshToken,
    fingerprint: crypto.randomUUID(),
    deviceUUID: crypto.randomUUID(),
    isInternal: false,
    ebtAccountId: null,
    locale: state.locale,
  });
  await page.addInitScript(
    ({ key, value }) => {
      if (location.protocol !== 'http:' || sessionStorage.getItem('e2e:seeded')) return;
      localStorage.setItem(key, value);
      sessionStorage.setItem('e2e:seeded', '1');
    },
    { key: storageKey, value },
  );
}

/** What the app has saved, parsed. */
export async function readStoredState(page: Page): Promise<Record<string, unknown> | null> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), storageKey);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
}
