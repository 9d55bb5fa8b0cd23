import { execa, type ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked, stopProcesses } from '../../src/lab/node/procs.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A command interrupted at a random moment leaves nothing behind: SIGINT and SIGTERM by its own clean-up, SIGKILL
 * by the lab's warden (owned labs) or by `ensemble down` (long-lived labs). Each trial picks its moment at random
 * within the command's usual run and prints it, so a failure can be replayed. ZKLAB_SLOW_TESTS=1 runs 3 trials a
 * combination (36) instead of one (12).
 */
const TRIALS = process.env.ZKLAB_SLOW_TESTS ? 3 : 1;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;

interface Case {
  readonly name: string;
  readonly owned: boolean;
  /** How long the command usually runs: the moment is drawn from [0, this). */
  readonly spanMs: number;
  /** Prepares the lab (not interrupted). */
  readonly before?: (lab: string) => Promise<void>;
  readonly args: (lab: string) => string[];
}

const up = async (lab: string) => {
  const r = await zklab(['ensemble', 'up', '-n', '1', '--lab', lab]);
  expect(r.exitCode, r.stderr).toBe(0);
};

const CASES: readonly Case[] = [
  { name: 'ensemble up', owned: false, spanMs: 3000, args: (lab) => ['ensemble', 'up', '--lab', lab] },
  {
    name: 'contenders spawn',
    owned: false,
    spanMs: 2500,
    before: up,
    args: (lab) => ['contenders', 'spawn', '5', '--lab', lab],
  },
  { name: 'demo', owned: true, spanMs: 12_000, args: (lab) => ['demo', '--lab', lab] },
  { name: 'drill run', owned: true, spanMs: 9000, args: (lab) => ['drill', 'run', 'join-and-elect', '--lab', lab] },
];

/** Nothing of the lab runs: no server, daemon or contender (its markers), and no warden. */
const nothingRuns = (paths: LabPaths) => findMarked([...paths.markers, paths.wardenMarker]).length === 0;

async function staleLabs(): Promise<unknown[]> {
  const r = await zklab(['labs', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { root: string; status: string }[]).filter(
    (l) => l.status === 'stale' || l.status === 'orphan',
  );
}

let running: ResultPromise | undefined;
const labsMade: LabPaths[] = [];

afterEach(async () => {
  running?.kill('SIGKILL');
  for (const paths of labsMade.splice(0))
    await stopProcesses(findMarked([...paths.markers, paths.wardenMarker]), 'SIGKILL');
});

describe('an interrupted command leaves no lab process behind', () => {
  for (const c of CASES) {
    for (const sig of SIGNALS) {
      for (let trial = 1; trial <= TRIALS; trial++) {
        it(`${c.name} × ${sig}${TRIALS > 1 ? ` #${trial}` : ''}`, async () => {
          const paths = new LabPaths(`${tempDir()}/lab`);
          labsMade.push(paths);
          await c.before?.(paths.root);
          const at = Math.floor(Math.random() * c.spanMs);
          running = execa(process.execPath, [ZKLAB_BIN, ...c.args(paths.root)], {
            reject: false,
            stdin: 'ignore',
            env: { FORCE_COLOR: '0', CI: 'true' },
          });
          const ended = await Promise.race([
            running,
            new Promise<undefined>((r) => setTimeout(() => r(undefined), at)),
          ]);
          const why = `${sig} at ${at} ms${ended ? ' (the command had already ended)' : ''}`;
          running.kill(sig);
          await running;
          running = undefined;
          if (!c.owned) {
            const down = await zklab(['ensemble', 'down', '--lab', paths.root]);
            expect(down.exitCode, `${why}: ${down.stderr}`).toBe(0);
          }
          await waitFor(() => nothingRuns(paths), `no process of the lab after ${why}`, 10_000, 50);
          if (c.owned)
            await waitFor(() => !existsSync(paths.root), `the lab's directory removed after ${why}`, 10_000, 50);
          expect(await staleLabs(), why).toEqual([]);
        }, 60_000);
      }
    }
  }
});
