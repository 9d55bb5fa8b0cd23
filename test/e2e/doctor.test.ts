import { accessSync, constants, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';

/** A directory to put first on PATH, holding a `python3` of the test's choosing. */
function pathWithPython(python: string): string {
  const dir = tempDir();
  symlinkSync(python, join(dir, 'python3'));
  return `${dir}:${process.env.PATH}`;
}

describe('zklab doctor', () => {
  it('checks what a lab needs, and says which python can import kazoo when python3 on PATH cannot', async () => {
    const lab = `${tempDir()}/lab`;
    // A python3 without kazoo first on PATH, as a pyenv shim often is.
    const script = join(tempDir(), 'python3-without-kazoo');
    writeFileSync(script, '#!/bin/sh\necho "ModuleNotFoundError: No module named kazoo" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const r = await zklab(['doctor'], { lab, env: { PATH: pathWithPython(script), ZKLAB_PYTHON: '' } });
    expect(r.exitCode, r.stderr).toBe(0);
    for (const name of ['node', 'java', 'zookeeper', 'native client', 'lab']) {
      expect(r.stdout).toMatch(new RegExp(`^✓ ${name}: `, 'm'));
    }
    expect(r.stdout).toMatch(/^– python3 on PATH: \S+\/python3 cannot import kazoo; \/usr\/bin\/python3 can$/m);
    expect(r.stdout).toMatch(/--exec -- \/usr\/bin\/python3 my_service\.py \{connect\}/);

    const good = await zklab(['doctor'], { lab, env: { PATH: pathWithPython('/usr/bin/python3'), ZKLAB_PYTHON: '' } });
    expect(good.stdout).toMatch(/^✓ python3 on PATH: \S+\/python3 imports kazoo$/m);
  }, 60_000);

  it('says how nodes are held here and why, and what ZKLAB_CONTAINMENT asks for', async () => {
    const lab = `${tempDir()}/lab`;
    // The machine's own answer: a cgroup v2 hierarchy this user may write, by the kernel's mount table.
    const v2 = /\s(\S+)\s\S+\s-\scgroup2\s/.exec(readFileSync('/proc/self/mountinfo', 'utf8'))?.[1];
    let writable = false;
    try {
      if (v2) accessSync(v2, constants.W_OK);
      writable = v2 !== undefined;
    } catch {
      writable = false;
    }
    const here = await zklab(['doctor'], { lab });
    expect(here.stdout).toMatch(
      writable ? new RegExp(`^✓ containment: cgroup2: cgroup v2 control groups under ${v2}`, 'm') : /^✓ containment: /m,
    );
    const marker = await zklab(['doctor'], { lab, env: { ZKLAB_CONTAINMENT: 'marker' } });
    expect(marker.stdout).toMatch(
      /^✓ containment: marker: environment markers \(ZKLAB_NODE\), as ZKLAB_CONTAINMENT=marker asks/m,
    );
    const odd = await zklab(['doctor'], { lab, env: { ZKLAB_CONTAINMENT: 'jail' } });
    expect(odd.stdout).toMatch(/\(ZKLAB_CONTAINMENT=jail is not one of marker, cgroup, cgroup1, cgroup2\)/);
  }, 60_000);
});
