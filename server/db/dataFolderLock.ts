/**
 * One server per PGlite data folder. PGlite keeps its pages in its own memory and writes them to the
 * folder when it likes, with no lock of its own (its postmaster.pid is a fixed stand-in), so a second
 * process on the same folder (a second `npm start`, a bench pointed at `.data/pglite`) opened it
 * without a word: each saw only its own writes, and what the folder kept at the end was whichever
 * wrote last, the other's money lost. The server that opens the folder writes its process id in
 * `server.pid` there; another finds it and refuses to start while that process lives. A file left by
 * a server that stopped without closing (killed) names a process gone, or this very process when its
 * id came round again (a container's server is process 1 on every start): it is taken over.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The data folder is open in another process (or already in this one); the message says which and what to do. */
export class DataFolderInUse extends Error {}

/** The folders this process holds. */
const claimed = new Set<string>();

/**
 * Whether a process (not a thread) with this id runs. Linux answers kill(id, 0) for a thread's id
 * too, so a pid left by a killed server that is now a thread of some other program would refuse
 * every start; /proc/<id>/status names the process (Tgid) a thread belongs to.
 */
function isRunning(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const tgid = /^Tgid:\s*(\d+)$/m.exec(status)?.[1];
    if (tgid !== undefined) return Number(tgid) === pid;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/status')) return false;
    // No /proc (macOS), or unreadable: ask the kernel.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process id in the file, or undefined when it is gone (another start just took it over). */
function holderOf(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Claims `dataDir` (which must exist) for this process; answers the release, which close() calls. */
export function claimDataFolder(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid');
  const inUse = (holder: number | string) =>
    new DataFolderInUse(
      `the database folder ${dataDir} is open in ${holder === process.pid ? 'this process already' : `process ${holder}`}: stop that server first, or give this one another DATA_DIR (if no such server runs, delete ${file}).`,
    );
  // Two servers starting together on a stale file both remove it and race to write theirs: the loser
  // mostly finds the winner's file on its next turn. (A file lock would close it fully; Node has none,
  // and npm start starts one server, so the window is two hand-started servers within a millisecond.)
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      claimed.add(file);
      return () => {
        claimed.delete(file);
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder === undefined) continue;
    const held = holder === process.pid ? claimed.has(file) : Number.isInteger(holder) && holder > 0 && isRunning(holder);
    if (held) throw inUse(holder);
    rmSync(file, { force: true });
  }
  throw inUse(holderOf(file) ?? 'another process');
}
