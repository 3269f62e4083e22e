/** `npm start`: one process serving the web app, card API, content API and sandbox. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, isLoopback, readConfig, type ServerConfig } from './config.ts';
import { DataFolderInUse } from './db/dataFolderLock.ts';
import { openDatabase } from './db/database.ts';
import { buildApp } from './app.ts';
import { startExpirySweep } from './features/ledger/index.ts';
import { prepareStatementPdf } from './features/statements/index.ts';
import { startCompanionHost } from './partners/companionHost.ts';
import { processorUrlOf, startProcessor } from './partners/processor.ts';
import { cardStateCardholders, demoCardholder, mfaCardholder } from './seed.ts';
import { preparedAtStart } from './startUp.ts';

function configOrExit(): ServerConfig {
  try {
    return readConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Providers card will not start: ${error.message}`);
    process.exit(1);
  }
}

const config = configOrExit();
// A dump only ever starts a new data folder: one that holds a cluster keeps it.
const startFrom =
  config.pgliteDump && !config.databaseUrl && !existsSync(path.join(config.dataDir, 'PG_VERSION')) ? new Uint8Array(readFileSync(config.pgliteDump)) : undefined;
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  snapshot: startFrom,
  prepare: preparedAtStart(config),
}).catch((error: unknown) => {
  if (!(error instanceof DataFolderInUse)) throw error;
  console.error(`Providers card will not start: ${error.message}`);
  process.exit(1);
});
await database.gatherStatistics();
const app = await buildApp(config, database.db);
// Records expired holds in the ledger periodically (otherwise the next write on the account does).
const holdExpirySweep =
  config.holdExpirySweepSeconds > 0
    ? startExpirySweep(database.db, {
        intervalMs: config.holdExpirySweepSeconds * 1000,
        report: (error) => app.log.error({ err: error }, 'The hold-expiry sweep failed; it runs again at its next interval.'),
        swept: (voided) => app.log.info(`The hold-expiry sweep voided ${voided} expired holds.`),
      })
    : undefined;
let companionHost: Awaited<ReturnType<typeof startCompanionHost>> | undefined;
let processor: Awaited<ReturnType<typeof startProcessor>> | undefined;

const shutdown = async () => {
  await holdExpirySweep?.stop();
  await companionHost?.close();
  await processor?.close();
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}`;
// Sandbox only: the card processor (hosted PIN page, card details, card images) on its own origin,
// started first (e2e runs wait for the companion host's page: then all three are up).
if (config.sandbox) {
  processor = await startProcessor(config, database.db, { appOrigins: [url, `http://127.0.0.1:${config.port}`] });
}
// Sandbox only: the companion benefits app stand-in, on its own origin, framing the app.
if (config.sandbox) companionHost = await startCompanionHost(config, { appUrl: url });
const lines = [
  '',
  `Providers card is running at ${url}`,
  `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
];
if (config.sandbox) {
  lines.push(
    `  sandbox mode (NODE_ENV is not production): demo data, sandbox partners and keys, on ${config.host}${
      isLoopback(config.host) ? ', this machine only' : ', EXPOSED to the network (SANDBOX_PUBLIC=true)'
    }`,
    `  companion host (sandbox): http://localhost:${config.companionPort}  (the app embedded, as in the benefits app)`,
    `  card processor (sandbox): ${processorUrlOf(config)}  (hosted PIN page, card details, card images)`,
    '  demo cardholder:',
    `    email       ${demoCardholder.email}`,
    `    password    ${demoCardholder.password}`,
    `    unlock code ${demoCardholder.unlockCode}`,
    `  cardholder with a texted sign-in code: ${mfaCardholder.email} / ${mfaCardholder.password}, unlock code ${mfaCardholder.unlockCode}, code in /sandbox/outbox?phone=${mfaCardholder.phone}`,
    `  physical cards in each state (password and unlock code as the demo's; docs/sandbox.md): ${cardStateCardholders.map((cardholder) => `${cardholder.email} (${cardholder.state})`).join(', ')}`,
  );
}
console.log(lines.join('\n'));
// Otherwise the first statement asked for after a start waits about 1 s for the PDF code.
prepareStatementPdf().catch((error: unknown) =>
  app.log.warn({ err: error }, 'The statement PDF code could not be loaded ahead; the first statement asked for loads it.'),
);
