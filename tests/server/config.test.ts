/**
 * Safe defaults: production is one explicit switch, a production start with a key that is missing,
 * committed, guessable or shared refuses to start with a message naming it, the sandbox stays on this
 * machine, only listed proxies are believed, and token lifetimes are whole seconds in range.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import { productionEnv } from './helpers.ts';

const production = { ...productionEnv, WEB_ROOT: '' };
const refused = (env: NodeJS.ProcessEnv, reason: RegExp) => {
  expect(() => readConfig(env)).toThrow(ConfigError);
  expect(() => readConfig(env)).toThrow(reason);
};

describe('choosing production', () => {
  it('is production with NODE_ENV=production and the sandbox otherwise', () => {
    expect(readConfig(production).sandbox).toBe(false);
    expect(readConfig({ WEB_ROOT: '' }).sandbox).toBe(true);
    expect(readConfig({ NODE_ENV: 'development', WEB_ROOT: '' }).sandbox).toBe(true);
  });

  it.each(['prod', 'Production', 'staging', 'production '])('refuses NODE_ENV=%j', (nodeEnv) => {
    refused({ ...production, NODE_ENV: nodeEnv }, /NODE_ENV/);
  });

  it('refuses SANDBOX=true with production, and SANDBOX=false without it', () => {
    refused({ ...production, SANDBOX: 'true' }, /SANDBOX=true/);
    refused({ SANDBOX: 'false', WEB_ROOT: '' }, /SANDBOX=false/);
  });
});

describe('PGLITE_DUMP', () => {
  it('names a file that exists, else the start is refused with a message naming it', () => {
    expect(readConfig({ WEB_ROOT: '' }).pgliteDump).toBeUndefined();
    expect(readConfig({ WEB_ROOT: '', PGLITE_DUMP: 'package.json' }).pgliteDump).toMatch(/\/package\.json$/);
    refused({ WEB_ROOT: '', PGLITE_DUMP: '/nowhere/migrated.tar' }, /PGLITE_DUMP=\/nowhere\/migrated\.tar: no such file/);
  });
});

describe('a production start refuses unsafe keys', () => {
  const sandbox = readConfig({ WEB_ROOT: '' });
  const sandboxKeys = {
    TOKEN_SECRET: new TextDecoder().decode(sandbox.tokenSecret),
    COMPANION_TOKEN_SECRET: new TextDecoder().decode(sandbox.companionTokenSecret),
    SSN_ENCRYPTION_KEY: sandbox.ssnEncryptionKey.toString('base64'),
    SSN_HASH_KEY: sandbox.ssnHashKey.toString('base64'),
  };

  it.each(Object.keys(sandboxKeys))('refuses the sandbox %s committed in the repo', (name) => {
    refused({ ...production, [name]: sandboxKeys[name as keyof typeof sandboxKeys] }, new RegExp(`${name} is the sandbox's key`));
  });

  it.each(['TOKEN_SECRET', 'COMPANION_TOKEN_SECRET', 'SSN_ENCRYPTION_KEY', 'SSN_HASH_KEY'])('refuses a missing %s', (name) => {
    refused({ ...production, [name]: undefined }, new RegExp(name));
  });

  it('refuses a short signing secret', () => {
    refused({ ...production, TOKEN_SECRET: 'x7Q!p2' }, /TOKEN_SECRET \(at least 32/);
  });

  it.each([
    ['one character repeated', 'a'.repeat(48)],
    ['a short pattern repeated', 'abab'.repeat(12)],
    ['a keyboard run', '1234567890123456789012345678901234567890'],
  ])('refuses a guessable signing secret: %s', (_, secret) => {
    refused({ ...production, COMPANION_TOKEN_SECRET: secret }, /COMPANION_TOKEN_SECRET looks guessable/);
  });

  it('refuses SSN keys that are not random bytes', () => {
    refused({ ...production, SSN_HASH_KEY: Buffer.alloc(32, 9).toString('base64') }, /SSN_HASH_KEY is not random/);
  });

  it('refuses one secret for both token kinds, and one key for both SSN uses', () => {
    refused({ ...production, COMPANION_TOKEN_SECRET: production.TOKEN_SECRET }, /must differ/);
    refused({ ...production, SSN_HASH_KEY: production.SSN_ENCRYPTION_KEY }, /must differ/);
  });

  it('starts with random keys of its own', () => {
    const fresh = { TOKEN_SECRET: randomBytes(32).toString('base64'), SSN_HASH_KEY: randomBytes(32).toString('base64') };
    expect(readConfig({ ...production, ...fresh }).sandbox).toBe(false);
  });

  it('says so and exits with failure when the server process starts with one', async () => {
    const start = execFile(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, ...production, TOKEN_SECRET: 'too-short', DATA_DIR: '/nonexistent/never-created' },
    });
    const exit = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      let stderr = '';
      start.stderr?.on('data', (chunk: string) => (stderr += chunk));
      start.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('Providers card will not start: TOKEN_SECRET (at least 32 random characters) is required in production.');
  }, 60_000);
});

describe('where the sandbox listens', () => {
  it('listens on this machine only by default; production on every interface', () => {
    expect(readConfig({ WEB_ROOT: '' }).host).toBe('localhost');
    expect(readConfig(production).host).toBe('0.0.0.0');
  });

  it.each(['127.0.0.1', '::1', 'localhost'])('accepts the loopback HOST=%s', (host) => {
    expect(readConfig({ HOST: host, WEB_ROOT: '' }).host).toBe(host);
  });

  it('refuses another HOST unless told to expose the sandbox', () => {
    refused({ HOST: '0.0.0.0', WEB_ROOT: '' }, /loopback only/);
    refused({ HOST: '192.168.1.20', WEB_ROOT: '' }, /SANDBOX_PUBLIC=true/);
    expect(readConfig({ HOST: '0.0.0.0', SANDBOX_PUBLIC: 'true', WEB_ROOT: '' }).host).toBe('0.0.0.0');
  });
});

describe('who may frame the app', () => {
  it('in the sandbox: the companion host and the dev port by either loopback name, exactly', () => {
    const config = readConfig({ COMPANION_PORT: '8090' });
    expect(config.companionOrigins).toEqual(['http://localhost:8090', 'http://127.0.0.1:8090']);
    expect(config.devOrigins).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
  });

  it('in production: only the configured origins, and none by default', () => {
    expect(readConfig(production).companionOrigins).toEqual([]);
    expect(readConfig(production).devOrigins).toEqual([]);
    const configured = readConfig({ ...production, COMPANION_ORIGINS: 'https://benefits.example.org' });
    expect(configured.companionOrigins).toEqual(['https://benefits.example.org']);
  });

  it('takes exact origins, written as operators write them (case, a trailing slash, the default port, IPv6, Unicode)', () => {
    const configured = readConfig({
      ...production,
      COMPANION_ORIGINS:
        'https://Benefits.Example.org/, https://app.benefits.example.org:8443,http://localhost:8090, http://[::1]:8090, https://host.example.org:443, https://[2001:db8:0:0::1], https://bücher.example',
    });
    expect(configured.companionOrigins).toEqual([
      'https://benefits.example.org',
      'https://app.benefits.example.org:8443',
      'http://localhost:8090',
      'http://[::1]:8090',
      'https://host.example.org',
      'https://[2001:db8::1]',
      'https://xn--bcher-kva.example',
    ]);
  });

  it.each([
    ['https://*', 'a wildcard would let every site frame the app'],
    ['https://*.example.org', 'a wildcard subdomain'],
    ['https://a.example.org;https://b.example.org', 'a semicolon starts a new CSP directive'],
    ['https://a.example.org https://b.example.org', 'a space instead of a comma'],
    ['https://benefits.example.org/app', 'a path'],
    ['https://benefits.example.org/?', 'a query, even empty'],
    ['https://benefits.example.org#top', 'a fragment'],
    ['https://user@benefits.example.org', 'credentials'],
    ['file:///srv/host.html', 'the null origin'],
    ['data:text/html,hi', 'the null origin'],
    ['benefits.example.org', 'no scheme'],
    ['http://benefits.example.org', 'plain http in production'],
  ])('refuses %s (%s)', (origin) => {
    refused({ ...production, COMPANION_ORIGINS: origin }, /COMPANION_ORIGINS: .* is not an exact origin/);
  });
});

describe('TRUST_PROXY', () => {
  it('believes nobody by default', () => {
    expect(readConfig({ WEB_ROOT: '' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'false', WEB_ROOT: '' }).trustProxy).toBe(false);
  });

  it('takes proxy addresses, CIDRs and proxy-addr ranges', () => {
    expect(readConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8,loopback', WEB_ROOT: '' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([
    ['true', /every X-Forwarded-For hop/],
    ['2', /number of hops/],
    ['proxy.example.com', /not a proxy address/],
    ['10.0.0.0/33', /not a proxy address/],
    ['10.0.0.1/8/1', /not a proxy address/],
  ])('refuses TRUST_PROXY=%s', (value, reason) => {
    refused({ TRUST_PROXY: value, WEB_ROOT: '' }, reason);
  });
});

describe('token lifetimes (ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL)', () => {
  it('are 15 minutes and 30 days unless set; an empty value is unset', () => {
    expect(readConfig({ WEB_ROOT: '' })).toMatchObject({ accessTokenTtl: 900, refreshTokenTtl: 2_592_000 });
    expect(readConfig({ ACCESS_TOKEN_TTL: '', REFRESH_TOKEN_TTL: ' ', WEB_ROOT: '' })).toMatchObject({ accessTokenTtl: 900, refreshTokenTtl: 2_592_000 });
  });

  it('take whole seconds within their bounds, 60 (the README’s auth-modal test) included', () => {
    for (const seconds of ['10', '60', ' 900 ', '3600']) expect(readConfig({ ACCESS_TOKEN_TTL: seconds, WEB_ROOT: '' }).accessTokenTtl).toBe(Number(seconds));
    for (const seconds of ['3600', '86400', '7776000']) expect(readConfig({ REFRESH_TOKEN_TTL: seconds, WEB_ROOT: '' }).refreshTokenTtl).toBe(Number(seconds));
    expect(readConfig({ ...production, ACCESS_TOKEN_TTL: '300', REFRESH_TOKEN_TTL: '604800' })).toMatchObject({ accessTokenTtl: 300, refreshTokenTtl: 604_800 });
  });

  it.each([
    ['15m', 'not a number (every sign-in failed with 500)'],
    ['0', 'none at all'],
    ['-60', 'negative'],
    ['9', 'too short to reach the first call'],
    ['3601', 'over an hour'],
    ['2592000', '30 days'],
    ['90.5', 'not whole seconds'],
    ['1e3', 'not written as seconds'],
    ['0x3c', 'not written as seconds'],
    ['Infinity', 'not a number'],
  ])('refuse ACCESS_TOKEN_TTL=%s (%s), in the sandbox and in production', (value) => {
    refused({ ACCESS_TOKEN_TTL: value, WEB_ROOT: '' }, new RegExp(`ACCESS_TOKEN_TTL="${value.replace(/[.+]/g, '\\$&')}" must be a whole number of seconds from 10 to 3600`));
    refused({ ...production, ACCESS_TOKEN_TTL: value }, /ACCESS_TOKEN_TTL/);
  });

  it.each([
    ['30d', 'not a number'],
    ['0', 'none at all'],
    ['-1', 'negative'],
    ['3599', 'shorter than the longest access token'],
    ['7776001', 'over 90 days'],
    ['31536000', 'a year'],
  ])('refuse REFRESH_TOKEN_TTL=%s (%s)', (value) => {
    refused({ REFRESH_TOKEN_TTL: value, WEB_ROOT: '' }, /REFRESH_TOKEN_TTL=".*" must be a whole number of seconds from 3600 to 7776000/);
  });
});
