import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zklab } from '../helpers/cli.js';
import { CLOCK_READER, logStampsFrom, monoNow, rateBetween, readingsSince } from '../helpers/clock-readings.js';
import { tempDir, tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Clock faults on the node network (`--net ns`: each node in a namespace of its own, as root), and the drill step
 * `clock:` in a drill of its own: both seen by a contender that writes down its own clocks
 * (test/programs/clock_reader.py).
 */

const paths = tempLab();
const lab = paths.root;
const dir = tempDir();

async function cli(args: string[]): Promise<string> {
  const r = await zklab(args, { lab });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout;
}

async function readingsAfter(readerDir: string, id: string, what: string, enough = 5) {
  const since = monoNow();
  return waitFor(
    () => {
      const r = readingsSince(readerDir, id, since);
      return r.length >= enough ? r : undefined;
    },
    `${enough} readings of ${id}'s clocks (${what})`,
    10_000,
  );
}

describe('clock faults on the node network', () => {
  beforeAll(async () => {
    await cli(['ensemble', 'up', '-n', '1', '--net', 'ns']);
    await cli(['contenders', 'spawn', '1', '--exec', '--', 'python3', CLOCK_READER, dir, '{id}']);
  }, 90_000);

  afterAll(async () => {
    const down = await zklab(['ensemble', 'down', '--purge'], { lab });
    expect(down.exitCode, down.stderr).toBe(0);
  }, 60_000);

  it('skew, drift and reset reach a contender in its own namespace', async () => {
    await cli(['clock', 'skew', 'c1', '-2m']);
    for (const r of await readingsAfter(dir, 'c1', 'after -2m'))
      expect(Math.abs(r.offsetMs + 120_000)).toBeLessThan(1000);
    await cli(['clock', 'drift', 'c1', '0.5']);
    const slow = await readingsAfter(dir, 'c1', 'at half speed', 12);
    expect(rateBetween(slow[0]!, slow.at(-1)!)).toBeCloseTo(0.5, 1);
    await cli(['clock', 'reset', 'c1']);
    for (const r of await readingsAfter(dir, 'c1', 'after the reset')) expect(Math.abs(r.offsetMs)).toBeLessThan(1000);
  });

  it("reaches a server's JVM in its namespace: its log stamps lines by the skewed clock", async () => {
    await cli(['clock', 'skew', 'zk1', '-1h']);
    const log = paths.serverLog('zk1');
    const before = readFileSync(log, 'utf8').length;
    // A contender's new session makes zk1, the only server, log.
    await cli(['contenders', 'spawn', '1', '--path', '/clock-ns']);
    const stamped = await waitFor(() => {
      const t = logStampsFrom(log, before);
      return t.length > 0 ? t : undefined;
    }, "a line of zk1's log after the skew");
    for (const t of stamped) expect(Math.abs(t - Date.now() + 3_600_000)).toBeLessThan(10_000);
    await cli(['clock', 'reset', 'all']);
  });
});

describe('the drill step clock:', () => {
  it('skews, drifts and resets as the drill says; the program saw each, and the report has the window', async () => {
    const readerDir = tempDir();
    const file = join(tempDir(), 'clock.yaml');
    writeFileSync(
      file,
      `name: clock-steps
ensemble: { servers: 1 }
contenders:
  count: 1
  exec: [python3, ${CLOCK_READER}, ${readerDir}, "{id}"]
steps:
  - wait: { joined: 1, timeout: 20s }
  - clock: { target: c1, offset: -30s }
  - sleep: 1s
  - clock: { target: c1, rate: 2 }
  - clock: { target: zk1, rate: 2 }
  - sleep: 1s
  - clock: { reset: all }
  - sleep: 1s
checks: [singleLeader]
`,
    );
    const r = await zklab(['drill', 'run', file, '--json'], { timeoutMs: 90_000 });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const result = JSON.parse(r.stdout) as {
      steps: { description: string; outcome: string; detail?: string }[];
      faults: { kind: string; label: string; startMs: number; endMs: number }[];
    };
    expect(result.steps.map((s) => [s.description, s.outcome])).toContainEqual(["c1's clock -30s", 'ok']);
    expect(result.steps.find((s) => s.description === 'clock reset all')?.detail).toBe(
      "zk1's clock true again, c1's clock true again",
    );
    // The report's fault windows: each change of a clock runs until the next change of that clock.
    expect(result.faults.filter((f) => f.kind === 'clock').map((f) => f.label)).toEqual([
      "c1's clock -30s",
      "c1's clock runs at 2×",
      "zk1's clock runs at 2×",
    ]);
    for (const f of result.faults) expect(f.endMs, f.label).toBeGreaterThan(f.startMs + 500);
    // What the program itself read: 30 s behind, then twice as fast from there, then true.
    const all = readingsSince(readerDir, 'c1', 0);
    expect(all.some((x) => Math.abs(x.offsetMs + 30_000) < 500)).toBe(true);
    const fast = all.filter((x, i) => i > 0 && rateBetween(all[i - 1]!, x) > 1.7);
    expect(fast.length).toBeGreaterThan(3);
    expect(Math.abs(all.at(-1)!.offsetMs)).toBeLessThan(1000);
  }, 120_000);
});
