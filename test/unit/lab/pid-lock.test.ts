import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidLockHolder, releasePidLock, tryPidLock } from '../../../src/lab/pid-lock.js';
import { tempDir } from '../../helpers/paths.js';

/** A pid no process has: above the kernel's pid_max. */
const DEAD_PID = 4_194_305;

describe('pid lock files', () => {
  it('takes a free lock, writing its pid, and refuses one a live process holds', () => {
    const file = join(tempDir(), 'x.lock');
    expect(tryPidLock(file)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    writeFileSync(file, `${process.ppid}\n`); // the test runner's parent lives
    expect(tryPidLock(file)).toBe(false);
    expect(pidLockHolder(file)).toBe(process.ppid);
    releasePidLock(file); // not ours: left alone
    expect(pidLockHolder(file)).toBe(process.ppid);
  });

  it('takes over a lock whose holder died, one of its own, and one older than maxAgeMs', () => {
    const file = join(tempDir(), 'x.lock');
    writeFileSync(file, `${DEAD_PID}\n`);
    expect(tryPidLock(file)).toBe(true);
    expect(tryPidLock(file)).toBe(true);
    writeFileSync(file, `${process.ppid}\n`);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(file, old, old);
    expect(tryPidLock(file, { maxAgeMs: 120_000 })).toBe(false);
    expect(tryPidLock(file, { maxAgeMs: 30_000 })).toBe(true);
    releasePidLock(file);
    expect(pidLockHolder(file)).toBeUndefined();
  });

  it('leaves a lock without a pid to its taker for a while, then takes it', () => {
    const file = join(tempDir(), 'x.lock');
    writeFileSync(file, '');
    expect(tryPidLock(file)).toBe(false);
    const old = (Date.now() - 20_000) / 1000;
    utimesSync(file, old, old);
    expect(tryPidLock(file)).toBe(true);
  });
});
