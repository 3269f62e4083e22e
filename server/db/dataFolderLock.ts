/**
 * One server per PGlite data folder. PGlite keeps its pages in its own memory and writes them to the
 * folder when it likes, with no lock of its own (its postmaster.pid is a fixed stand-in), so a second
 * process on the same folder (a second `npm start`, a bench pointed at `.data/pglite`) opened it
 * without a word: each saw only its own writes, and what the folder kept at the end was whichever
 * wrote last, the other's money lost. The server that opens the folder writes in `server.pid` there
 * its process id and, where Linux's /proc tells them, the machine's boot and the process's start; another
 * finds it and refuses to start while that very process lives. A file left by a server that stopped
 * without closing (killed, or the machine lost power) is taken over: its process is gone, or its id now
 * names another process (started later, after a reboot, or a thread), or this very process (a
 * container's server is process 1 on every start).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The data folder is open in another process (or already in this one); the message says which and what to do. */
export class DataFolderInUse extends Error {}

/** The folders this process holds. */
const claimed = new Set<string>();

/** Which process a pid file names: its id, and where /proc tells them, the boot and its start (clock ticks since boot). */
type Holder = { pid: number; boot?: string; start?: string };

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The process `pid` as /proc describes it now: undefined when no process has that id, null where /proc
 * is not (macOS). A thread's id is not a process: Linux answers kill(id, 0) and /proc/<id> for threads
 * too, so its Tgid (the process it belongs to) is compared.
 */
function procHolder(pid: number): Required<Holder> | undefined | null {
  const boot = readOrUndefined('/proc/sys/kernel/random/boot_id')?.trim();
  if (boot === undefined) return null;
  const status = readOrUndefined(`/proc/${pid}/status`);
  const stat = readOrUndefined(`/proc/${pid}/stat`);
  if (status === undefined || stat === undefined || Number(/^Tgid:\s*(\d+)$/m.exec(status)?.[1]) !== pid) return undefined;
  // Fields after the command's closing parenthesis (the command may hold spaces): the start is field 22.
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  return { pid, boot, start };
}

function isRunning(holder: Holder): boolean {
  const now = procHolder(holder.pid);
  if (now === undefined) return false;
  if (now !== null) return holder.boot === undefined || (holder.boot === now.boot && holder.start === now.start);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder the file names, or undefined when it is gone (another start just took it over). */
function holderOf(file: string): Holder | undefined {
  const text = readOrUndefined(file);
  if (text === undefined) return undefined;
  const [pid, boot, start] = text.trim().split(' ');
  return { pid: Number(pid), boot, start };
}

const thisProcess = (): string => {
  const self = procHolder(process.pid);
  return self ? `${self.pid} ${self.boot} ${self.start}` : String(process.pid);
};

/** Claims `dataDir` (which must exist) for this process; answers the release, which close() calls. */
export function claimDataFolder(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid');
  const inUse = (pid: number | string) =>
    new DataFolderInUse(
      `the database folder ${dataDir} is open in ${pid === process.pid ? 'this process already' : `process ${pid}`}: stop that server first, or give this one another DATA_DIR (if no such server runs, delete ${file}).`,
    );
  // Two servers starting together on a stale file both remove it and race to write theirs: the loser
  // mostly finds the winner's file on its next turn. (A file lock would close it fully; Node has none,
  // and npm start starts one server, so the window is two hand-started servers within a millisecond.)
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(file, thisProcess(), { flag: 'wx' });
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
    const held =
      holder.pid === process.pid ? claimed.has(file) : Number.isInteger(holder.pid) && holder.pid > 0 && isRunning(holder);
    if (held) throw inUse(holder.pid);
    rmSync(file, { force: true });
  }
  throw inUse(holderOf(file)?.pid ?? 'another process');
}
