import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

async function freshWarmUp() {
  return (await import('../../src/shared/format/intlWarmUp.ts')).warmUpIntl;
}

describe('warmUpIntl', () => {
  it('starts one module worker per page, however often it is asked', async () => {
    const started: { url: string; options?: WorkerOptions }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(url: URL | string, options?: WorkerOptions) {
          started.push({ url: String(url), options });
        }
      },
    );
    const warmUpIntl = await freshWarmUp();
    warmUpIntl();
    warmUpIntl();
    expect(started).toHaveLength(1);
    expect(started[0]!.url).toMatch(/intlWarmUp\.worker\.ts/);
    expect(started[0]!.options).toEqual({ type: 'module' });
  });

  it('does nothing where there is no Worker', async () => {
    vi.stubGlobal('Worker', undefined);
    const warmUpIntl = await freshWarmUp();
    expect(() => warmUpIntl()).not.toThrow();
  });
});
