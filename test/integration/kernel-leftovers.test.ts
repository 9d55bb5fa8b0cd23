import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { belongsTo, labKernelObjects, leftSince } from '../helpers/kernel-leftovers.js';

/** The suite's own leak check must be able to fail: a control group made here, as a lab would name it, is seen. */
describe('the leak check of the global teardown', () => {
  const base = ['/sys/fs/cgroup/unified', '/sys/fs/cgroup'].find((d) => existsSync(join(d, 'cgroup.procs')));

  it.runIf(base !== undefined)('sees a control group that appeared during the run, and only that lab', () => {
    const root = `/tmp/zklab-leak-check-${process.pid}`;
    const key = createHash('sha256').update(root).digest('hex').slice(0, 16);
    const zklab = join(base!, 'zklab');
    const madeBase = !existsSync(zklab);
    const before = labKernelObjects();
    const dir = join(zklab, key);
    mkdirSync(join(dir, 'zk1'), { recursive: true });
    try {
      // Other files' labs may come and go meanwhile: this lab's objects are the ones looked at.
      const left = leftSince(before, '/nonexistent-registry').filter((l) => l.includes(key));
      expect(left).toEqual([`cgroup ${dir}`]);
      expect(belongsTo(left[0]!, root)).toBe(true);
      expect(belongsTo(left[0]!, `${root}-other`)).toBe(false);
      // Beside another test run, only what belongs to this run's own directories is its leftover.
      expect(leftSince(before, '/nonexistent-registry', [root], false)).toEqual([`cgroup ${dir}`]);
      expect(leftSince(before, '/nonexistent-registry', [`${root}-other`], false)).toEqual([]);
    } finally {
      rmdirSync(join(dir, 'zk1'));
      rmdirSync(dir);
      if (madeBase) rmdirSync(zklab);
    }
    expect(leftSince(before, '/nonexistent-registry').filter((l) => l.includes(key))).toEqual([]);
  });
});
