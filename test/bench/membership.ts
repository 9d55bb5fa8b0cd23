/**
 * Issue 16: how long each step of a membership change takes (ensemble add and remove by dynamic reconfiguration),
 * beside a plain quorum write on the same ensemble; and each server's unavailability in a rolling restart.
 */
import { ensembleAdd, ensembleRemove } from '../../src/ensemble/membership.js';
import { restartServers } from '../../src/ensemble/service.js';
import { probeSrvr } from '../../src/zk/four-letter.js';
import { readState } from '../../src/lab/state.js';
import { withBenchLab } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

/** Quorum writes timed; add/remove rounds (each adds a participant and an observer, and removes both); restart rounds. */
const sizes = (opts: BenchOptions) => ({
  writes: sized(opts, 200, 5),
  rounds: sized(opts, 3, 1),
  restarts: sized(opts, 2, 1),
});

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { writes: writeCount, rounds, restarts } = sizes(opts);
  return withBenchLab('membership', async (paths, zk) => {
    await zk.create('/bench-write', '', 'persistent');
    const writes: number[] = [];
    for (let i = 0; i < writeCount; i++) {
      const t = performance.now();
      await zk.setData('/bench-write', String(i));
      writes.push(performance.now() - t);
    }
    const write = median(writes);

    const steps: Record<string, number[]> = {};
    const keep = (kind: string, s: Readonly<Record<string, number>>) => {
      for (const [k, ms] of Object.entries(s)) {
        steps[`${kind}: ${k}`] ??= [];
        steps[`${kind}: ${k}`]!.push(ms);
      }
    };
    for (let r = 0; r < rounds; r++) {
      const a = await ensembleAdd(paths);
      keep('add', a.steps);
      const o = await ensembleAdd(paths, { observer: true });
      keep('add --observer', o.steps);
      keep('remove', (await ensembleRemove(paths, o.server)).steps);
      keep('remove', (await ensembleRemove(paths, a.server)).steps);
    }
    const rows: BenchRow[] = [
      { name: `baseline: one quorum write (setData), p50 of ${writeCount}`, value: write, unit: 'ms' },
    ];
    for (const [name, xs] of Object.entries(steps))
      rows.push({ name: `${name}, median of ${xs.length}`, value: median(xs), unit: 'ms' });
    const reconfig = median([...(steps['add: reconfig'] ?? []), ...(steps['remove: reconfig'] ?? [])]);
    rows.push({ name: 'reconfig call ÷ quorum write (both p50)', value: reconfig / write, unit: 'x' });

    // Rolling restarts (twice in full): each server in turn, the next once the previous serves again.
    const down: Record<string, number[]> = {};
    for (let r = 0; r < restarts; r++) {
      for (const s of readState(paths)!.servers) {
        const role = (await probeSrvr(s.clientPort, 500)).mode === 'leader' ? 'the quorum leader' : 'a follower';
        down[role] ??= [];
        down[role].push((await restartServers(paths, s.name)).unavailableMs);
      }
    }
    for (const [role, xs] of Object.entries(down))
      rows.push({
        name: `rolling restart: unavailability of ${role} (SIGKILL → serving), median of ${xs.length}`,
        value: median(xs),
        unit: 'ms',
      });
    return rows;
  });
}
