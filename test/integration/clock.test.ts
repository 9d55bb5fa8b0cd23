import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState } from '../../src/lab/state.js';
import { zklab } from '../helpers/cli.js';
import { CLOCK_READER, monoNow, rateBetween, readingsSince, stampsAfterSession } from '../helpers/clock-readings.js';
import { tempDir, tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Clock faults on the link proxies' lab (`--net proxy`), each seen by the faulted program itself: a Python contender
 * that writes down its own wall and monotonic clocks (test/programs/clock_reader.py), a ZooKeeper JVM by its log's
 * timestamps, and zklab's own recipe on Node by the true times it keeps stamping its events with. This test's own
 * clock, which shares the machine's, stays true throughout.
 */

const paths = tempLab();
const lab = paths.root;
const dir = tempDir();

async function cli(args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await zklab(args, { lab, ...(env ? { env } : {}) });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Waits for readings of `id` taken after now, and returns them once `enough` holds of them. */
async function readingsAfter(id: string, what: string, enough = 5) {
  const since = monoNow();
  return waitFor(
    () => {
      const r = readingsSince(dir, id, since);
      return r.length >= enough ? r : undefined;
    },
    `${enough} readings of ${id}'s clocks (${what})`,
    10_000,
  );
}

const STATIC_SOURCE =
  '#include <stdio.h>\n#include <unistd.h>\nint main(void) { printf("ZKLAB {\\"event\\":\\"joined\\"}\\n"); fflush(stdout); for (;;) pause(); }\n';
const hasStaticLibc = existsSync('/usr/lib/x86_64-linux-gnu/libc.a');

beforeAll(async () => {
  await cli(['ensemble', 'up', '-n', '3']);
  await cli(['contenders', 'spawn', '2', '--exec', '--', 'python3', CLOCK_READER, dir, '{id}']);
  // c3: zklab's own recipe (Node), alone on its path: it leads and stamps an `act` event every 200 ms.
  await cli(['contenders', 'spawn', '1', '--path', '/clock']);
  await waitFor(() => readingsSince(dir, 'c1', 0).length > 0 && readingsSince(dir, 'c2', 0).length > 0, 'readers');
}, 90_000);

afterAll(async () => {
  const down = await zklab(['ensemble', 'down', '--purge'], { lab });
  expect(down.exitCode, down.stderr).toBe(0);
}, 60_000);

describe('clock faults, as the faulted programs see them', () => {
  it("skew jumps one node's wall clock; its monotonic clock, its neighbour's and ours run on untouched", async () => {
    expect(await cli(['clock', 'skew', 'c1', '+30s'])).toBe("c1's clock +30s");
    const c1 = await readingsAfter('c1', 'after +30s');
    for (const r of c1) expect(Math.abs(r.offsetMs - 30_000)).toBeLessThan(1000);
    // Its monotonic clock ran on at the machine's pace between its own readings.
    expect(rateBetween(c1[0]!, c1.at(-1)!)).toBeCloseTo(1, 1);
    for (const r of await readingsAfter('c2', 'its neighbour')) expect(Math.abs(r.offsetMs)).toBeLessThan(1000);
    // The machine's clock: what date(1) says is what this test says.
    expect(Math.abs(Number(execFileSync('date', ['+%s'], { encoding: 'utf8' })) * 1000 - Date.now())).toBeLessThan(
      1500,
    );
  });

  it('drift runs it at the rate from where it is, without a jump; list shows both; reset makes it true', async () => {
    await cli(['clock', 'drift', 'c1', '2']);
    const c1 = await readingsAfter('c1', 'drifting at 2×', 12);
    // No jump: it goes on from +30 s, and runs twice as fast as the machine's monotonic clock.
    expect(Math.abs(c1[0]!.offsetMs - 30_000)).toBeLessThan(1000);
    expect(rateBetween(c1[0]!, c1.at(-1)!)).toBeGreaterThan(1.8);
    expect(rateBetween(c1[0]!, c1.at(-1)!)).toBeLessThan(2.2);
    const listed = JSON.parse(await cli(['clock', 'list', '--json'])) as { node: string; rate: string }[];
    expect(listed.map((r) => [r.node, r.rate])).toEqual([['c1', '2×']]);

    expect(await cli(['clock', 'reset', 'all'])).toBe("c1's clock true again");
    for (const r of await readingsAfter('c1', 'after the reset')) expect(Math.abs(r.offsetMs)).toBeLessThan(1000);
    expect((await cli(['clock', 'list'])).trim()).toBe("no node's clock is faked");
  });

  it("a ZooKeeper server's JVM logs by its skewed clock, and the ensemble serves on", async () => {
    await cli(['clock', 'skew', 'zk1', '+1h']);
    // A session opened on zk1 alone makes it log; its log4j stamps each line with the JVM's wall clock.
    const { clientPort } = readState(paths)!.servers.find((s) => s.name === 'zk1')!;
    const stamped = await stampsAfterSession(
      paths.serverLog('zk1'),
      `127.0.0.1:${clientPort}`,
      "a line of zk1's log after the skew",
    );
    for (const t of stamped) expect(Math.abs(t - Date.now() - 3_600_000)).toBeLessThan(10_000);
    expect(await cli(['ensemble', 'status'])).toMatch(/quorum: 3\/3 voters serving/);
    // inspect shows the faked clock under the ensemble.
    expect(await cli(['inspect', '--once'])).toMatch(/^nodes: zk1 clock \+(59m\d\ds|1h00m)$/m);
    await cli(['clock', 'reset', 'zk1']);
  }, 30_000);

  it("zklab's recipe on a skewed node stamps its events with the lab's true time, and sees no stall", async () => {
    await cli(['clock', 'skew', 'c3', '-30s']);
    const skewedAt = Date.now();
    const events = () =>
      readFileSync(paths.contenderEvents('c3'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { t: number; event: string; reason?: string });
    const acts = await waitFor(() => {
      const later = events().filter((e) => e.event === 'act' && e.t >= skewedAt - 1000);
      return later.length >= 5 ? later : undefined;
    }, "c3's act events after the skew");
    for (const e of acts) expect(Math.abs(e.t - Date.now())).toBeLessThan(5000);
    expect(events().filter((e) => e.event === 'paused')).toEqual([]);
    await cli(['clock', 'reset', 'c3']);
  });
});

describe('clock faults refused where they cannot apply: exit 2, one line, nothing changed', () => {
  const refused = async (args: string[], pattern: RegExp) => {
    const r = await zklab(args, { lab });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(pattern);
    expect((await cli(['clock', 'list'])).trim()).toBe("no node's clock is faked");
  };

  it('bad offsets and rates, an unknown target, a skew of all', async () => {
    await refused(['clock', 'skew', 'c1', '+2y'], /^zklab: <offset>: "\+2y" is not an offset \(write .*\+30s/);
    await refused(['clock', 'skew', 'c1', '400d'], /beyond a year/);
    await refused(['clock', 'drift', 'c1', '0'], /^zklab: <rate>: 0 would stop the clock/);
    await refused(['clock', 'drift', 'c1', '101'], /above 100/);
    await refused(['clock', 'skew', 'c9', '+1s'], /unknown target "c9"/);
    await refused(['clock', 'skew', 'all', '+1s'], /only a reset may name all/);
  });

  it('a node started with ZKLAB_CLOCK=off', async () => {
    await cli(['contenders', 'spawn', '1', '--path', '/clock-off'], { ZKLAB_CLOCK: 'off' });
    await refused(
      ['clock', 'skew', 'c4', '+1s'],
      /^zklab: c4's clock cannot be faked: .* was started without the clock shim/,
    );
  });

  it.skipIf(!hasStaticLibc)('a static binary, which loads no preloaded library', async () => {
    const src = join(dir, 'static.c');
    writeFileSync(src, STATIC_SOURCE);
    execFileSync('cc', ['-static', '-o', join(dir, 'static-contender'), src]);
    await cli(['contenders', 'spawn', '1', '--exec', '--', join(dir, 'static-contender')]);
    await refused(
      ['clock', 'skew', 'c5', '+1s'],
      /^zklab: c5's clock cannot be faked: .*static-contender \(pid \d+\) is a static binary/,
    );
  });
});
