import fs from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock on its data directory, so two processes could open it and lose writes
 * (measured with pglite 0.5.14: both processes open it without error). We take an exclusive lock file holding our pid; a lock left
 * by a dead process (SIGKILL) is taken over.
 */
export interface DirectoryLock {
  release(): void;
}

export function acquireDirectoryLock(dataDir: string): DirectoryLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "hangar.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return {
        release() {
          try {
            if (readLockOwner(lockPath) === process.pid) fs.unlinkSync(lockPath);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readLockOwner(lockPath);
      if (owner !== null && owner !== process.pid && isProcessAlive(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by another Hangar process (pid ${owner}). ` +
            `Stop that process, or set DATABASE_URL to share a PostgreSQL server between processes.`,
        );
      }
      // Stale lock from a process that is gone: remove it and try once more.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database directory ${dataDir}`);
}

function readLockOwner(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
    return Number.isFinite(pid) ? pid : null;
  } catch {
    return null;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
