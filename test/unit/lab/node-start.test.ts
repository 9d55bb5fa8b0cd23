import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type NodeStart, setNodeStartHook } from '../../../src/lab/node-start.js';
import { spawnNode } from '../../../src/lab/nodes.js';
import { LabPaths } from '../../../src/lab/paths.js';
import type { LabState } from '../../../src/lab/state.js';
import { waitFor } from '../../helpers/wait.js';

/** A node held by environment markers: no control group is made for it. */
const MARKED = { containment: { kind: 'marker', base: '' } } as LabState;

describe('a node started with what the fault kinds prepare it with', () => {
  afterEach(() => setNodeStartHook(undefined));

  it("gives the program the hook's environment, and never lets it override the node's own marker", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zklab-node-start-'));
    try {
      const paths = new LabPaths(dir);
      const asked: NodeStart[] = [];
      setNodeStartHook((start) => {
        asked.push(start);
        return { env: { ZKLAB_TEST_PREP: `ready for ${start.node}`, ZKLAB_NODE: 'not-the-marker' } };
      });
      const out = join(dir, 'out');
      const script = `printf '%s|%s' "$ZKLAB_TEST_PREP" "$ZKLAB_NODE" > ${out}`;
      spawnNode(paths, 'c7', MARKED, '/bin/sh', ['-c', script], join(dir, 'c7.log'));
      await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').includes('|'), 'the program to write', 5000);
      expect(readFileSync(out, 'utf8')).toBe(`ready for c7|${dir}:c7`);
      expect(asked.map((a) => [a.paths.root, a.node])).toEqual([[dir, 'c7']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
