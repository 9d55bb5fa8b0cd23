import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { BUILTIN_DRILLS } from '../helpers/builtin-drills.js';

const BUILTINS = BUILTIN_DRILLS;

const GOOD_HEAD = `name: t
contenders: { count: 2, recipe: predecessor }
steps:
  - wait: { joined: 2, timeout: 20s }
`;

/** Writes a drill file into a fresh directory; returns its path and a lab directory that must stay absent. */
function drillFile(text: string): { file: string; lab: string } {
  const dir = tempDir();
  const file = `${dir}/drill.yaml`;
  writeFileSync(file, text);
  return { file, lab: `${dir}/lab` };
}

describe('zklab drill list', () => {
  it('names every built-in drill with its description', async () => {
    const r = await zklab(['drill', 'list']);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const name of BUILTINS) expect(r.stdout).toMatch(new RegExp(`^${name} +\\S`, 'm'));
    expect(r.stdout).toMatch(/split-brain +The same partition as client-partition/);
  });

  it('--json lists names, descriptions and files', async () => {
    const r = await zklab(['drill', 'list', '--json']);
    const { drills } = JSON.parse(r.stdout) as { drills: { name: string; description: string; file: string }[] };
    expect(drills.map((d) => d.name)).toEqual(BUILTINS);
    expect(drills.every((d) => d.description.length > 20 && d.file.endsWith(`${d.name}.yaml`))).toBe(true);
  });
});

describe('zklab drill steps', () => {
  it('lists every step kind with its fields and examples, within 100 columns; --json and --markdown alike', async () => {
    const r = await zklab(['drill', 'steps']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.length > 100)).toEqual([]);
    expect(r.stdout).toMatch(/^partition +Cut links/m);
    expect(r.stdout).toMatch(/^ +- partition: \{ isolate: leader \}$/m);
    expect(r.stdout).toMatch(/^ +- heal$/m);
    const json = await zklab(['drill', 'steps', '--json']);
    const { steps } = JSON.parse(json.stdout) as { steps: { kind: string; fields: string[]; examples: string[] }[] };
    expect(steps.find((s) => s.kind === 'kill')?.fields).toEqual(['target', 'signal', 'scope']);
    const md = await zklab(['drill', 'steps', '--markdown']);
    expect(md.stdout.split('\n').slice(0, 2)).toEqual([
      '| step | what it does | fields | examples |',
      '|---|---|---|---|',
    ]);
    const both = await zklab(['drill', 'steps', '--json', '--markdown']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^zklab: Arguments json and markdown are mutually exclusive\n/);
  });
});

describe('zklab drill run with a bad drill file: file:line: field, exit 2, nothing started', () => {
  it.each([
    [
      'malformed YAML',
      `name: t\ncontenders: { count: 2, recipe: predecessor\nsteps: []\n`,
      /drill\.yaml:\d+: \(yaml\): /,
    ],
    [
      'an unknown step',
      `${GOOD_HEAD}  - explode: now\n`,
      /drill\.yaml:5: steps\[1\]\.explode: unknown step kind \(use one of: wait, kill/,
    ],
    [
      'an unknown field',
      `${GOOD_HEAD}  - kill: { target: c1, force: true }\n`,
      /drill\.yaml:5: steps\[1\]\.kill\.force: unknown field \(use one of: target, signal, scope\)/,
    ],
    [
      'a wait without a timeout',
      `${GOOD_HEAD}  - wait: { leader: true }\n`,
      /drill\.yaml:5: steps\[1\]\.wait\.timeout: is required \(a wait needs a timeout/,
    ],
    [
      'a target that does not exist',
      `${GOOD_HEAD}  - kill: c7\n`,
      /drill\.yaml:5: steps\[1\]\.kill\.target: c7 does not exist: the drill has 2 contender\(s\)/,
    ],
    [
      'a server that does not exist',
      `${GOOD_HEAD}  - pause: zk4\n`,
      /drill\.yaml:5: steps\[1\]\.pause\.target: zk4 does not exist: the ensemble has 3 server\(s\)/,
    ],
  ])('%s', async (_, text, message) => {
    const { file, lab } = drillFile(text);
    const r = await zklab(['drill', 'run', file, '--lab', lab]);
    expect(r.exitCode, r.stderr).toBe(2);
    const first = r.stderr.split('\n')[0] ?? '';
    expect(first).toMatch(/^zklab: \//);
    expect(first).toMatch(message);
    expect(r.stderr).toContain('fix the drill file and run it again');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(existsSync(lab)).toBe(false);
    expect(findMarked(new LabPaths(lab).markers)).toEqual([]);
  });
});

describe('zklab drill check: a drill read and described, without a lab', () => {
  it('describes a valid file: its steps with their lines and its checks; exit 0, nothing started', async () => {
    const { file } = drillFile(
      `${GOOD_HEAD}  - kill: leader\n  - expect: { newLeaderWithin: 5s }\nchecks: [singleLeader]\n`,
    );
    const named = tempDir();
    const r = await zklab(['drill', 'check', file], { env: { ZKLAB_LAB: named } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('drill t: valid');
    expect(r.stdout).toMatch(/^ +1 +line 4 +wait for 2 joined \(up to 20s\)$/m);
    expect(r.stdout).toMatch(/^ +2 +line 5 +kill leader$/m);
    expect(r.stdout).toMatch(/^checks:\n {2}singleLeader\n/m);
    expect(readdirSync(named)).toEqual([]);
  });

  it('refuses a bad file at its line, exit 2, as run would', async () => {
    const { file, lab } = drillFile(`${GOOD_HEAD}  - kill: c7\n`);
    const r = await zklab(['drill', 'check', file, '--lab', lab]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^zklab: \/.*drill\.yaml:5: steps\[1\]\.kill\.target: c7 does not exist/);
    expect(r.stdout).toBe('');
    expect(existsSync(lab)).toBe(false);
  });
});

describe('zklab drill run with bad arguments: one line, exit 2, nothing started', () => {
  it.each([
    [['drill', 'run', 'no-such-drill'], /no built-in drill named no-such-drill/],
    [['drill', 'run', '/nonexistent/d.yaml'], /cannot read drill file \/nonexistent\/d\.yaml/],
    [['drill', 'run', 'join-and-elect', '--repeat', '0'], /--repeat must be a whole number from 1 to 100/],
    [['drill', 'run', 'join-and-elect', '--seed', '-3'], /--seed must be a whole number/],
    [
      ['drill', 'run', 'join-and-elect', '--report', '/nonexistent/r.html'],
      /cannot write the report to \/nonexistent\/r\.html/,
    ],
    [
      ['drill', 'run', 'join-and-elect', '--report', '/tmp/out.txt'],
      /--report \/tmp\/out\.txt: the report is an HTML page/,
    ],
  ])('%j', async (args, message) => {
    const lab = `${tempDir()}/lab`;
    const r = await zklab([...args, '--lab', lab]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(existsSync(lab)).toBe(false);
  });
});

describe('zklab drill run verdicts and exit codes', () => {
  const FAILING = `name: wrong-successor
description: expects c3 to take over from c1, which the predecessor chain never does
contenders: { count: 3, recipe: predecessor }
steps:
  - wait: { joined: 3, timeout: 20s }
  - wait: { leaderIs: c1, timeout: 10s }
  - kill: { target: leader, signal: TERM }
  - expect: { newLeaderWithin: 5s }
  - expect: { leaderIs: c3 }
checks: [singleLeader, liveness]
`;

  it('exits 1 with one verdict line per expectation and check, and tears its lab down', async () => {
    const { file, lab } = drillFile(FAILING);
    const r = await zklab(['drill', 'run', file, '--lab', lab], { timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    const verdicts = r.stdout.split('\n').filter((l) => /^ {2}(PASSED|FAILED)/.test(l));
    expect(verdicts).toEqual([
      expect.stringMatching(/^ {2}PASSED {2}expect a new leader within 5s \(line 8\): c2 leads \S+ after the fault$/),
      '  FAILED  expect c3 leads (line 9): c2 leads',
      '  PASSED  check singleLeader: no stale leader acted',
      expect.stringMatching(/^ {2}PASSED {2}check liveness: /),
    ]);
    expect(r.stdout).toMatch(/^drill wrong-successor: FAILED/m);
    // Live progress, one line per step, on stderr.
    expect(r.stderr).toMatch(/ 3 +kill leader → c1 \(SIGTERM\): ok/);
    expect(r.stderr).toMatch(/torn down: \d+ process\(es\) stopped/);
    expect(r.stderr).toMatch(/zklab: drill wrong-successor failed/);
    expect(existsSync(lab)).toBe(false);
    expect(findMarked(new LabPaths(lab).markers)).toEqual([]);
  }, 150_000);

  it('--json prints the machine-readable result and still exits by the verdict; ZKLAB_LAB places the lab', async () => {
    const { file } = drillFile(FAILING.replace('leaderIs: c3', 'leaderIs: c2'));
    // ZKLAB_LAB names a directory of the user's: the run's lab goes in a new directory under it, and only that goes.
    const named = tempDir();
    writeFileSync(`${named}/notes.txt`, 'mine\n');
    const r = await zklab(['drill', 'run', file, '--json', '--seed', '9'], {
      env: { ZKLAB_LAB: named },
      timeoutMs: 120_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const root = new RegExp(`lab (${named}/zklab-drill-\\w{6}) \\(seed 9\\)`).exec(r.stderr)?.[1];
    expect(root, r.stderr).toBeDefined();
    expect(readdirSync(named)).toEqual(['notes.txt']);
    expect(readFileSync(`${named}/notes.txt`, 'utf8')).toBe('mine\n');
    expect(findMarked(new LabPaths(root!).markers)).toEqual([]);
    const report = JSON.parse(r.stdout) as {
      verdict: string;
      seed: number;
      expectations: { passed: boolean }[];
      steps: { index: string }[];
    };
    expect(report.verdict).toBe('passed');
    expect(report.seed).toBe(9);
    expect(report.expectations.map((e) => e.passed)).toEqual([true, true]);
    expect(report.steps.map((s) => s.index)).toEqual(['0', '1', '2', '3', '4', '5']);
  }, 150_000);

  it('on Ctrl-C stops the drill, tears down its lab and exits 130', async () => {
    const lab = `${tempDir()}/lab`;
    const child = execa(process.execPath, [ZKLAB_BIN, 'drill', 'run', 'join-and-elect', '--lab', lab], {
      env: { FORCE_COLOR: '0' },
      reject: false,
      stdin: 'ignore',
      timeout: 90_000,
    });
    let err = '';
    child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
    await waitFor(() => / 2 +wait for a leader/.test(err), 'the drill to reach its steps', 60_000);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(/torn down: \d+ process\(es\) stopped/);
    expect(r.stderr).toMatch(/zklab: interrupted; what this command started has been stopped/);
    expect(existsSync(lab)).toBe(false);
    expect(findMarked(new LabPaths(lab).markers)).toEqual([]);
  }, 120_000);
});
