import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import type { LabPaths } from './paths.js';
import { ensureDir } from './fs.js';
import { pidAlive } from './procs.js';

function holder(paths: LabPaths): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(paths.lockFile, 'utf8'), 10);
    return Number.isFinite(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` holding the lab's lock, so two zklab commands never change one lab at once.
 * A lock left by a dead process is taken over.
 */
export async function withLabLock<T>(paths: LabPaths, fn: () => Promise<T>, waitMs = 30_000): Promise<T> {
  ensureDir(paths.root);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(paths.lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = holder(paths);
      if (pid === undefined || pid === process.pid || !pidAlive(pid)) {
        rmSync(paths.lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new UsageError(
          `the lab at ${paths.root} is busy: zklab process ${pid} holds its lock`,
          'wait for that command to finish, or stop it',
        );
      }
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    if (holder(paths) === process.pid) rmSync(paths.lockFile, { force: true });
  }
}
