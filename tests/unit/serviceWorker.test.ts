/**
 * public/sw.js when a new build's worker activates: caches of other names go, and the kept assets the
 * build no longer has leave the phone's storage; the shell and the assets both builds share stay. Run
 * in a context of its own over an in-memory Cache Storage.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const origin = 'https://card.providers.test';
const workerSource = readFileSync(path.join(process.cwd(), 'public/sw.js'), 'utf8');

/** Cache Storage holding requests by their address (as the worker stores and asks for them). */
function memoryCaches(contents: Record<string, string[]>) {
  const stores = new Map(Object.entries(contents).map(([name, urls]) => [name, new Set(urls.map((url) => new URL(url, origin).href))]));
  const cacheOf = (urls: Set<string>) => ({
    keys: async () => [...urls].map((url) => ({ url })),
    delete: async (request: { url: string }) => urls.delete(request.url),
  });
  return {
    stores,
    api: {
      keys: async () => [...stores.keys()],
      delete: async (name: string) => stores.delete(name),
      open: async (name: string) => {
        if (!stores.has(name)) stores.set(name, new Set());
        return cacheOf(stores.get(name)!);
      },
    },
  };
}

/** Loads the worker as a build writes it (its asset list in place) and lets it activate. */
async function activate(builtAssets: string[], contents: Record<string, string[]>) {
  const caches = memoryCaches(contents);
  const handlers: Record<string, (event: unknown) => void> = {};
  const self = {
    location: { origin },
    addEventListener: (type: string, handler: (event: unknown) => void) => void (handlers[type] = handler),
    clients: { claim: async () => {} },
  };
  const source = workerSource.replace('const builtAssets = [];', `const builtAssets = ${JSON.stringify(builtAssets)};`);
  runInNewContext(source, { self, caches: caches.api, URL });
  let done: Promise<unknown> = Promise.resolve();
  handlers.activate!({ waitUntil: (promise: Promise<unknown>) => void (done = promise) });
  await done;
  return Object.fromEntries([...caches.stores].map(([name, urls]) => [name, [...urls].map((url) => new URL(url).pathname).sort()]));
}

describe('the service worker, activating', () => {
  const kept = {
    'providers-card-shell-v1': ['/index.html', '/assets/index-OLD1.js', '/assets/startup-SAME.js', '/assets/HomeView-OLD2.js'],
    'providers-card-shell-v0': ['/index.html', '/assets/index-OLDER.js'],
  };

  it("drops the assets the new build does not have, and other versions' caches", async () => {
    const after = await activate(['/assets/index-NEW1.js', '/assets/startup-SAME.js', '/assets/HomeView-NEW2.js'], kept);
    expect(after).toEqual({ 'providers-card-shell-v1': ['/assets/startup-SAME.js', '/index.html'] });
  });

  it('prunes nothing from the dev server, which lists no assets', async () => {
    const after = await activate([], kept);
    expect(after).toEqual({ 'providers-card-shell-v1': [...kept['providers-card-shell-v1']].sort() });
  });

  it('is written with the placeholder the build fills in once', () => {
    expect(workerSource.split('const builtAssets = [];').length).toBe(2);
  });
});
