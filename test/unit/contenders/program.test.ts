import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fillSpawnPlaceholders,
  programEnv,
  programExitError,
  resolveProgram,
} from '../../../src/contenders/program.js';
import { PROGRAMS_DIR } from '../../../src/templates.js';
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

describe("a spawn's own placeholders", () => {
  it('fills {programs} with the folder of the examples zklab ships, and {python} with the interpreter that has kazoo', async () => {
    let asked = 0;
    const python = async () => {
      asked++;
      return '/opt/py/bin/python3';
    };
    const words = await fillSpawnPlaceholders(['{python}', '{programs}/ha_agent.py', '--id', '{id}'], python);
    expect(words).toEqual(['/opt/py/bin/python3', join(PROGRAMS_DIR, 'ha_agent.py'), '--id', '{id}']);
    expect(existsSync(words[1]!)).toBe(true);
    // The Python is looked for only when a word names it: finding it runs one.
    expect(await fillSpawnPlaceholders(['/bin/true', '{programs}'], python)).toEqual(['/bin/true', PROGRAMS_DIR]);
    expect(asked).toBe(1);
  });

  it('ships the example programs the manual and the built-in drills run', () => {
    for (const program of ['ha_agent.py', 'ha_probe.py', 'my_service.py'])
      expect(existsSync(join(PROGRAMS_DIR, program)), program).toBe(true);
  });
});
