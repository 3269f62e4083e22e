/**
 * The redaction rules (contract/shared/redaction.ts) in a chunk of their own: no screen needs them,
 * only what is reported (analytics, error reports), so they are not on the first screen's path (about
 * 470 B of its first load, docs/performance.md). They load when something is first sent (analytics
 * flush 2 s after their first event); until then what was reported waits in memory, unsent: nothing
 * leaves the phone unredacted.
 */
export type Redaction = typeof import('../../contract/shared/redaction.ts');

let loaded: Redaction | undefined;
let loading: Promise<Redaction> | undefined;

/**
 * The rules, loading them if need be. A failed load (offline) is asked for again next time, though a
 * browser may answer that from its failure for the rest of the page's life (Chromium keeps a failed
 * import): then analytics are dropped and reports lost, never sent unredacted.
 */
export function loadRedaction(): Promise<Redaction> {
  return (loading ??= import('../../contract/shared/redaction.ts').then(
    (rules) => (loaded = rules),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
}

/** The rules if they have loaded: for what cannot wait (a page going away). */
export const loadedRedaction = (): Redaction | undefined => loaded;
