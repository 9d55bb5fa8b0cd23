import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { pidAlive } from './node/procs.js';

/** A lock file being taken this instant holds no pid yet; one older than this without a pid was abandoned. */
const TAKING_MS = 10_000;

function holderOf(file: string): { pid: number | undefined; ageMs: number } | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return { pid: Number.isFinite(pid) ? pid : undefined, ageMs: Date.now() - statSync(file).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Takes a lock file that holds its holder's pid; false while a live process holds it. A lock whose holder died, one
 * left without a pid, one this process holds already, or one older than `maxAgeMs`, is taken over.
 */
export function tryPidLock(file: string, opts: { readonly maxAgeMs?: number } = {}): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = holderOf(file);
      if (holder === undefined) continue; // gone meanwhile
      const stale =
        holder.pid === undefined
          ? holder.ageMs >= TAKING_MS
          : holder.pid === process.pid || !pidAlive(holder.pid) || holder.ageMs > (opts.maxAgeMs ?? Infinity);
      if (!stale) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

/** The pid a lock file names, if any. */
export function pidLockHolder(file: string): number | undefined {
  return holderOf(file)?.pid;
}

/** Lets go of a lock this process holds (another's is left alone). */
export function releasePidLock(file: string): void {
  if (pidLockHolder(file) === process.pid) rmSync(file, { force: true });
}
