import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import type { LabPaths } from './paths.js';
import { ensureDir } from './fs.js';
import { pidLockHolder, releasePidLock, tryPidLock } from './pid-lock.js';

/**
 * Runs `fn` holding the lab's lock, so two zklab commands never change one lab at once.
 * A lock left by a dead process is taken over.
 */
export async function withLabLock<T>(paths: LabPaths, fn: () => Promise<T>, waitMs = 30_000): Promise<T> {
  ensureDir(paths.root);
  const deadline = Date.now() + waitMs;
  while (!tryPidLock(paths.lockFile)) {
    if (Date.now() > deadline) {
      throw new UsageError(
        `the lab at ${paths.root} is busy: zklab process ${pidLockHolder(paths.lockFile) ?? '?'} holds its lock`,
        'wait for that command to finish, or stop it',
      );
    }
    await sleep(50);
  }
  try {
    return await fn();
  } finally {
    releasePidLock(paths.lockFile);
  }
}
