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
 *
 * Servers starting together never both win: the file appears whole or not at all (a link to a file
 * already written), and a stale one is taken away by a rename, then checked to be the one judged stale.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The data folder is open in another process (or already in this one); the message says which and what to do. */
export class DataFolderInUse extends Error {}

/** The folders this process holds. */
const claimed = new Set<string>();

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    // ESRCH: a process whose /proc entry was open ended before it was read.
    if (['ENOENT', 'ESRCH'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/** A process as the pid file names it: its id and, where /proc tells them, the boot and its start (clock ticks since boot). */
type Holder = { pid: number; boot?: string; start?: string };

/**
 * What /proc says of id `pid`: 'thread' when it is a thread of another process (Linux answers
 * kill(id, 0) for threads too), its identity, or undefined when /proc cannot say (none on macOS,
 * another user's processes hidden by hidepid, or unreadable).
 */
function procIdentity(pid: number): Required<Holder> | 'thread' | undefined {
  try {
    const boot = readOrUndefined('/proc/sys/kernel/random/boot_id')?.trim();
    const status = readOrUndefined(`/proc/${pid}/status`);
    const stat = readOrUndefined(`/proc/${pid}/stat`);
    if (boot === undefined || status === undefined || stat === undefined) return undefined;
    if (Number(/^Tgid:\s*(\d+)$/m.exec(status)?.[1]) !== pid) return 'thread';
    // Fields after the command's closing parenthesis (the command may hold spaces): the start is field 22.
    return { pid, boot, start: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]! };
  } catch {
    return undefined;
  }
}

/** When this machine started (ms since the epoch), where /proc tells it. */
function bootedAt(): number | undefined {
  const seconds = /^btime (\d+)$/m.exec(readOrUndefined('/proc/stat') ?? '')?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

/** Whether the server the file names still runs. */
function holds(holder: Holder, file: string): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // ESRCH: gone. EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = procIdentity(holder.pid);
  if (now === 'thread') return false;
  if (now === undefined) return true;
  if (holder.boot !== undefined) return holder.boot === now.boot && holder.start === now.start;
  // A file of the first form (its id alone): written before this boot, its server is gone.
  const booted = bootedAt();
  // No file any more: another start has just taken it over, and the next turn reads its claim.
  const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  return written !== undefined && (booted === undefined || written >= booted);
}

function thisProcess(): string {
  const self = procIdentity(process.pid);
  return typeof self === 'object' ? `${self.pid} ${self.boot} ${self.start}` : String(process.pid);
}

/** Writes `text` as `file` if there is none, whole: linked from a file already written (never seen empty). */
function createWhole(file: string, text: string): boolean {
  const draft = `${file}.${randomUUID()}`;
  writeFileSync(draft, text);
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Takes `file` away if it still says `stale`. Moved aside first, then read: when another start has
 * meanwhile replaced it by its own claim, that claim is put back.
 */
function removeIfStill(file: string, stale: string): void {
  const aside = `${file}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== stale) linkSync(aside, file);
  } catch (error) {
    // EEXIST: a third start claimed it meanwhile; it holds the folder.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Claims `dataDir` (which must exist) for this process; answers the release, which close() calls. */
export function claimDataFolder(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.pid');
  const inUse = (pid: number | string) =>
    new DataFolderInUse(
      `the database folder ${dataDir} is open in ${pid === process.pid ? 'this process already' : `process ${pid}`}: stop that server first, or give this one another DATA_DIR (if no such server runs, delete ${file}).`,
    );
  const mine = thisProcess();
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (createWhole(file, mine)) {
      claimed.add(file);
      return () => {
        claimed.delete(file);
        // Only this server's own claim: a second close, or a file another server has since written, stays.
        if (readOrUndefined(file) === mine) rmSync(file, { force: true });
      };
    }
    const text = readOrUndefined(file);
    if (text === undefined) continue;
    const [pid, boot, start] = text.trim().split(' ');
    const holder = { pid: Number(pid), boot, start };
    const held = holder.pid === process.pid ? claimed.has(file) : holds(holder, file);
    if (held) throw inUse(holder.pid);
    removeIfStill(file, text);
  }
  throw inUse('another process');
}
