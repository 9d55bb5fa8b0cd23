import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programEnv, programExitError, resolveProgram } from '../../../src/contenders/program.js';
import { UsageError } from '../../../src/errors.js';
import { contenderEvent } from '../../helpers/events.js';

const ctx = {
  connect: '127.0.0.1:1,127.0.0.1:2',
  id: 'c4',
  addr: '127.0.0.1',
  path: '/election',
  sessionTimeoutMs: 3000,
};

describe('program contenders', () => {
  it('tells the program the same in its environment', () => {
    expect(programEnv(ctx, '/tmp/lab')).toEqual({
      ZKLAB_CONNECT: '127.0.0.1:1,127.0.0.1:2',
      ZKLAB_ID: 'c4',
      ZKLAB_PATH: '/election',
      ZKLAB_SESSION_TIMEOUT_MS: '3000',
      ZKLAB_ADDR: '127.0.0.1',
      ZKLAB_LAB: '/tmp/lab',
    });
  });

  it('finds programs on the PATH or by path, and refuses what cannot run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zklab-prog-'));
    try {
      const runnable = join(dir, 'runnable');
      const plain = join(dir, 'plain');
      writeFileSync(runnable, '#!/bin/sh\n');
      chmodSync(runnable, 0o755);
      writeFileSync(plain, 'data');
      expect(resolveProgram('runnable', { PATH: `/nonexistent:${dir}` })).toBe(runnable);
      expect(resolveProgram('./runnable', {}, dir)).toBe(runnable);
      expect(() => resolveProgram('plain', { PATH: dir })).toThrow(/not on the PATH/);
      expect(() => resolveProgram(plain, {})).toThrow(UsageError);
      expect(() => resolveProgram('/no/such/program', {})).toThrow(/does not exist or is not executable/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says how a program that died at once ended, with its stderr', () => {
    const exited = contenderEvent(100, 'c4', 'exited', {
      code: 3,
      signal: null,
      stderr: ['Traceback', 'ImportError: kazoo'],
    });
    const err = programExitError('c4', ['python3', 'x.py'], [exited]);
    expect(err?.message).toBe('c4: python3 x.py exited with code 3 before it joined');
    expect(err?.hint).toContain('ImportError: kazoo');
    expect(programExitError('c4', ['x'], [])).toBeUndefined();
  });
});
