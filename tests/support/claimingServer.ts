/**
 * A server starting beside another on the same data folders (tests/server/dataFolderLock.test.ts), as a
 * process of its own: for each round it waits for the round's go file, claims the round's folder at
 * once, writes what came of it, and keeps what it claimed until the test ends it.
 * Arguments: the test's folder, the number of rounds, this server's name.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimDataFolder, DataFolderInUse } from '../../server/db/dataFolderLock.ts';

const [root, rounds, name] = process.argv.slice(2) as [string, string, string];
// Ends with the test's process, however that ends (a spinning orphan would hold a core).
const parent = process.ppid;
const orphaned = () => process.ppid !== parent;
for (let round = 0; round < Number(rounds); round += 1) {
  const go = path.join(root, `go-${round}`);
  // Spinning, not watching: both servers leave together, within microseconds, as a race needs.
  while (!existsSync(go)) if (orphaned()) process.exit(1);
  let outcome: string;
  try {
    claimDataFolder(path.join(root, `folder-${round}`));
    outcome = 'claimed';
  } catch (error) {
    outcome = error instanceof DataFolderInUse ? 'refused' : String(error);
  }
  // Renamed into place: the test never reads it half-written.
  const outcomeFile = path.join(root, `outcome-${round}-${name}`);
  writeFileSync(`${outcomeFile}.draft`, outcome);
  renameSync(`${outcomeFile}.draft`, outcomeFile);
}
setInterval(() => orphaned() && process.exit(0), 1000);
