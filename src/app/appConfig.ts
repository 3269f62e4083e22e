/**
 * Reads the runtime configuration the server puts into index.html (contract/shared/appConfig.ts). Without it
 * the sandbox defaults of server/config.ts apply in development (Vite dev server, unit tests); a build
 * allows no origin (a page without the config was not sent by the card API's server).
 */
import { appConfigElementId, type AppConfig } from '../../contract/shared/appConfig.ts';

export const sandboxAppConfig: AppConfig = {
  sandbox: true,
  hostOrigins: ['http://localhost:8090', 'http://127.0.0.1:8090', 'http://localhost:5173', 'http://127.0.0.1:5173'],
  processorOrigins: ['http://localhost:8100', 'http://127.0.0.1:8100'],
  accountLinkingOrigins: ['http://localhost:8092'],
  cmsPreviewOrigins: [],
  testRunnerOrigins: [],
};

const isOriginList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((origin) => typeof origin === 'string');

/** Allows nothing rather than guess. */
const noOrigins: AppConfig = {
  sandbox: false,
  hostOrigins: [],
  processorOrigins: [],
  accountLinkingOrigins: [],
  cmsPreviewOrigins: [],
  testRunnerOrigins: [],
};

export function readAppConfig(document: Document): AppConfig {
  const text = document.getElementById(appConfigElementId)?.textContent;
  if (!text) return import.meta.env.DEV ? sandboxAppConfig : noOrigins;
  try {
    const raw = JSON.parse(text) as Partial<Record<keyof AppConfig, unknown>>;
    const list = (key: Exclude<keyof AppConfig, 'sandbox'>) => (isOriginList(raw[key]) ? raw[key] : []);
    return {
      sandbox: raw.sandbox === true,
      hostOrigins: list('hostOrigins'),
      processorOrigins: list('processorOrigins'),
      accountLinkingOrigins: list('accountLinkingOrigins'),
      cmsPreviewOrigins: list('cmsPreviewOrigins'),
      testRunnerOrigins: list('testRunnerOrigins'),
    };
  } catch {
    // A broken config must not break the app.
    return noOrigins;
  }
}
