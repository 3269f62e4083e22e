/**
 * Child process for the API load test: `node --import tsx scripts/bench/serve.ts app|bare`. The app
 * runs on a file-backed PGlite in a throwaway folder, or on the PostgreSQL named by BENCH_DATABASE_URL;
 * BENCH_ACTIVITY_TRANSFERS=n bulk-loads n transfers into the demo cardholder's account first
 * (scripts/bench/activity.ts). Prints one JSON line {"port": n, "activity"?: …} once listening. Exits when its parent closes stdin (so it never
 * outlives the bench), or on SIGTERM/SIGINT.
 */
import { startAppServer, startBareServer, type RunningServer } from './appServer.ts';

const mode = process.argv[2];
if (mode !== 'app' && mode !== 'bare') {
  console.error('usage: serve.ts app|bare');
  process.exit(2);
}

const activityTransfers = Number(process.env.BENCH_ACTIVITY_TRANSFERS || 0);
const server: RunningServer =
  mode === 'app' ? await startAppServer('dist', process.env.BENCH_DATABASE_URL || undefined, { activityTransfers }) : await startBareServer();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => process.exit(0), 2000);
  timer.unref();
  await server.close().catch(() => undefined);
  process.exit(0);
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ port: server.port, activity: server.activity })}\n`);
