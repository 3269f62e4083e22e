/** First-load JS/CSS per route, computed from Vite's build manifest (dist/.vite/manifest.json). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

type ManifestChunk = {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

export type RouteWeight = {
  route: string;
  viewSrc: string;
  jsFiles: string[];
  cssFiles: string[];
  jsGzip: number;
  cssGzip: number;
  totalGzip: number;
  /** What a browser that accepts brotli downloads: the build's `.br` copies (vite.config.ts precompressed). */
  totalSent: number;
};

export type ChunkWeight = { src: string; files: string[]; gzip: number };

export type BundleReport = {
  entryFile: string;
  routes: RouteWeight[];
  /** Dynamic-import chunks with the static imports only they bring (not already in the entry graph). */
  routeChunks: ChunkWeight[];
  /** Dynamic chunks the app fetches at startup regardless of route (the locale catalog). */
  startupCatalog: ChunkWeight | undefined;
};

export const routeViews = [
  { route: '/signin', viewSrc: 'src/features/session/signIn/SignInView.tsx' },
  { route: '/home', viewSrc: 'src/features/home/HomeView.tsx' },
] as const;

export function analyseBundle(distDir: string): BundleReport {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gzipCache = new Map<string, number>();
  const gzipOf = (file: string) => {
    let size = gzipCache.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(distDir, file))).length;
      gzipCache.set(file, size);
    }
    return size;
  };
  const sentOf = (file: string) => {
    const brotli = path.join(distDir, `${file}.br`);
    return existsSync(brotli) ? statSync(brotli).size : gzipOf(file);
  };
  const chunk = (key: string): ManifestChunk => {
    const found = manifest[key];
    if (!found) throw new Error(`manifest has no entry ${key}`);
    return found;
  };

  /** Manifest keys of `key` and all its static imports, recursively. */
  const staticClosure = (key: string, into = new Set<string>()): Set<string> => {
    if (into.has(key)) return into;
    into.add(key);
    for (const imported of chunk(key).imports ?? []) staticClosure(imported, into);
    return into;
  };
  const cssOf = (keys: Iterable<string>) => {
    const css = new Set<string>();
    for (const key of keys) for (const file of chunk(key).css ?? []) css.add(file);
    return [...css];
  };

  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry && (key === 'index.html' || manifest[key]!.src === 'index.html'));
  if (!entryKey) throw new Error('manifest has no index.html entry');
  const entry = chunk(entryKey);
  const entryGraph = staticClosure(entryKey);
  const dynamicKeys = entry.dynamicImports ?? [];

  const routes = routeViews.map(({ route, viewSrc }): RouteWeight => {
    const viewKey = dynamicKeys.find((key) => key === viewSrc || manifest[key]?.src === viewSrc);
    if (!viewKey) throw new Error(`${viewSrc} is not a dynamic import of the entry chunk`);
    const keys = staticClosure(viewKey, new Set(entryGraph));
    const jsFiles = [...new Set([...keys].map((key) => chunk(key).file))];
    const cssFiles = cssOf(keys);
    const jsGzip = jsFiles.reduce((sum, file) => sum + gzipOf(file), 0);
    const cssGzip = cssFiles.reduce((sum, file) => sum + gzipOf(file), 0);
    const totalSent = [...jsFiles, ...cssFiles].reduce((sum, file) => sum + sentOf(file), 0);
    return { route, viewSrc, jsFiles, cssFiles, jsGzip, cssGzip, totalGzip: jsGzip + cssGzip, totalSent };
  });

  // Every dynamic-import chunk (transitively), weighed with what it adds beyond the entry graph.
  // Chunks may import each other in a cycle: each is visited once.
  const allDynamic = new Set<string>();
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    for (const dyn of chunk(key).dynamicImports ?? []) {
      allDynamic.add(dyn);
      visit(dyn);
    }
    for (const imported of chunk(key).imports ?? []) visit(imported);
  };
  visit(entryKey);
  const routeChunks = [...allDynamic]
    .map((key): ChunkWeight => {
      const own = [...staticClosure(key)].filter((k) => !entryGraph.has(k));
      const files = [...new Set(own.map((k) => chunk(k).file))];
      return { src: chunk(key).src ?? key, files, gzip: files.reduce((sum, file) => sum + gzipOf(file), 0) };
    })
    .sort((a, b) => b.gzip - a.gzip);

  const startupCatalog = routeChunks.find((c) => c.src === 'locales/en/messages.po');
  return { entryFile: entry.file, routes, routeChunks, startupCatalog };
}
