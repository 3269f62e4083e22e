/**
 * Embedded mode (spec §1): the app is embedded when a parent window frames it and that parent is
 * neither a CMS preview host nor a test runner. Standalone otherwise.
 */
import type { AppConfig } from '../../../contract/shared/appConfig.ts';

export type Framing = {
  /** window.parent !== window */
  framed: boolean;
  /** The parent's origin when the browser tells it (ancestorOrigins, else the referrer). */
  parentOrigin: string | null;
};

export function framingOf(window: Window): Framing {
  const framed = window.parent !== window;
  if (!framed) return { framed, parentOrigin: null };
  const fromAncestors = window.location.ancestorOrigins?.[0];
  if (fromAncestors && fromAncestors !== 'null') return { framed, parentOrigin: fromAncestors };
  try {
    return { framed, parentOrigin: window.document.referrer ? new URL(window.document.referrer).origin : null };
  } catch {
    return { framed, parentOrigin: null };
  }
}

export function isEmbedded(framing: Framing, config: Pick<AppConfig, 'cmsPreviewOrigins' | 'testRunnerOrigins'>): boolean {
  if (!framing.framed) return false;
  const parent = framing.parentOrigin;
  return !(parent && (config.cmsPreviewOrigins.includes(parent) || config.testRunnerOrigins.includes(parent)));
}
