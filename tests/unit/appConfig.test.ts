/**
 * The runtime config the server puts into index.html: read as sent; a page without it gets the
 * sandbox's origins only in development, and a build allows no origin (a page the card API's server
 * did not send, such as the raw build file, must not trust the sandbox's loopback origins).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appConfigElementId, type AppConfig } from '../../contract/shared/appConfig.ts';
import { readAppConfig, sandboxAppConfig } from '../../src/app/appConfig.ts';

const pageWith = (configText: string | null): Document => {
  const page = document.implementation.createHTMLDocument('app');
  if (configText !== null) {
    const script = page.createElement('script');
    script.type = 'application/json';
    script.id = appConfigElementId;
    script.textContent = configText;
    page.head.append(script);
  }
  return page;
};

const noOrigins: AppConfig = {
  sandbox: false,
  hostOrigins: [],
  processorOrigins: [],
  accountLinkingOrigins: [],
  cmsPreviewOrigins: [],
  testRunnerOrigins: [],
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('readAppConfig', () => {
  it('reads the config the server sent', () => {
    const sent: AppConfig = { ...noOrigins, hostOrigins: ['https://benefits.example'], processorOrigins: ['https://cards.processor.example'] };
    expect(readAppConfig(pageWith(JSON.stringify(sent)))).toEqual(sent);
  });

  it('allows nothing for a broken config', () => {
    expect(readAppConfig(pageWith('{not json'))).toEqual(noOrigins);
  });

  it('gives a page without the config the sandbox origins in development only', () => {
    vi.stubEnv('DEV', true);
    expect(readAppConfig(pageWith(null))).toEqual(sandboxAppConfig);
    vi.stubEnv('DEV', false);
    expect(readAppConfig(pageWith(null))).toEqual(noOrigins);
  });
});
