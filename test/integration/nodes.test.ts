import { execa, type ResultPromise } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directConnectString, readState } from '../../src/lab/state.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import {
  agentArgs,
  allGone,
  beat,
  beating,
  freePortBase,
  HA_AGENT,
  HA_PROBE,
  kazooPython,
  probeWords,
  processesOf,
  roleOnPort,
  stillFor,
} from '../helpers/ha-system.js';
import { tempDir, tempLab } from '../helpers/paths.js';
import { sharedLab } from '../helpers/shared-ensemble.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A contender is a node: an HA agent that elects through ZooKeeper and a database it starts that daemonizes (double
 * fork, setsid, workers of its own), templates/programs/ha_agent.py. Every assertion reads the database's own output (its
 * heartbeat, its port), ZooKeeper's znodes, or the kernel's process table; never zklab's accounting. The drills of
 * such a system's failover are here too: killing the agent alone leaves its database a primary beside the next one,
 * and singleLeader must fail with the overlap; killing the whole node must pass.
 */

const paths = tempLab();
const lab = sharedLab(paths);
let python = '';
const connect = () => directConnectString(readState(paths)!);

// A spawn whose program takes 45 s to join, in a lab of its own on the same servers: started first, awaited by the
// file's last test, so that its wait passes beside the other tests.
const slowLab = join(tempDir(), 'lab');
const slowDir = tempDir();
let slow: ResultPromise | undefined;

beforeAll(async () => {
  python = await kazooPython();
  const base = await freePortBase(5);
  slow = execa(
    process.execPath,
    [
      ZKLAB_BIN,
      'contenders',
      'spawn',
      '1',
      '--lab',
      slowLab,
      '--connect',
      connect(),
      '--path',
      '/ha-minute',
      '--join-timeout',
      '60s',
      ...agentArgs(python, slowDir, base, { joinDelaySeconds: 45 }),
    ],
    { reject: false, env: { FORCE_COLOR: '0' }, stdin: 'ignore' },
  );
});

afterAll(async () => {
  slow?.kill('SIGKILL');
  await zklab(['ensemble', 'down', '--purge'], { lab: slowLab });
});

const numberOf = (id: string) => Number(id.slice(1));
const spawnedIds = (out: string) => /^spawned ((?:c\d+(?:, )?)+)/m.exec(out)![1]!.split(', ');

/** Spawns `count` agents on `path`, each member at <path>/members/<id>, the leader owning <path>/leader. */
async function spawnAgents(path: string, count: number, extra: readonly string[] = []) {
  const dir = tempDir();
  const base = await freePortBase(count + 20);
  const out = await lab.cli([
    'contenders',
    'spawn',
    String(count),
    '--path',
    path,
    '--leader-rule',
    'single-node leader',
    '--probe',
    probeWords(python, base),
    ...extra,
    ...agentArgs(python, dir, base),
  ]);
  const ids = spawnedIds(out);
  for (const id of ids) await beating(dir, id);
  const primaries = async () => {
    const roles = await Promise.all(ids.map((id) => roleOnPort(base + numberOf(id))));
    return ids.filter((_, i) => roles[i] === 'primary');
  };
  return { dir, base, ids, primaries };
}

describe('a contender is a node: an HA agent and the database it daemonizes', () => {
  it('joins when its members own znodes two levels below --path; one database serves as primary', async () => {
    const { dir, ids, primaries } = await spawnAgents('/ha-join', 3);
    const members = (await lab.zk().getChildren('/ha-join/members')).sort();
    expect(members).toEqual([...ids].sort());
    for (const m of members)
      expect((await lab.zk().exists(`/ha-join/members/${m}`))!.ephemeralOwner).not.toMatch(/^(0x)?0+$/);
    await waitFor(async () => (await primaries()).length === 1, 'one primary', 10_000);
    // Seven processes a node: the supervisor, the agent, the database and its four workers.
    expect(processesOf(dir, 'database')).toHaveLength(3 * 5);
  });

  it('pause freezes the whole node: its database stops beating; resume thaws it', async () => {
    const { dir, ids } = await spawnAgents('/ha-pause', 2);
    const target = ids[1]!;
    await lab.cli(['pause', 'contender', target]);
    expect(await stillFor(dir, target)).toBe(true);
    await beating(dir, ids[0]!);
    await lab.cli(['resume', 'contender', target]);
    await beating(dir, target, 2000);
  });

  it('kill --scope process: the database lives on as primary beside the next; kill of the node then ends it', async () => {
    const { dir, base, primaries } = await spawnAgents('/ha-scope', 3);
    const [old] = await waitFor(async () => {
      const p = await primaries();
      return p.length === 1 ? p : undefined;
    }, 'one primary');
    await lab.cli(['kill', 'contender', old!, '--scope', 'process']);
    expect(processesOf(dir, 'agent')).toHaveLength(2);
    // Its database does not know: it beats on, and says it is the primary.
    await beating(dir, old!);
    expect(await roleOnPort(base + numberOf(old!))).toBe('primary');
    // The agent's session expires, another member takes the leader znode and promotes its own database: two.
    const both = await waitFor(
      async () => {
        const p = await primaries();
        return p.length === 2 ? p : undefined;
      },
      'a second primary',
      15_000,
    );
    expect(both).toContain(old);
    // The probes say so soon after the databases say it: each look is a CLI process of its own (about a second on a
    // busy 2-core machine, where 3 s left room for two looks and failed), so the wait allows a few.
    const list = await waitFor(
      async () => {
        const out = await lab.cli(['contenders', 'list']);
        return /! split brain: c\d+ and c\d+ act as leader at once, by their probes/.test(out) ? out : undefined;
      },
      'contenders list to name the split brain',
      6000,
    );
    expect(list).toMatch(new RegExp(`${old}'s program is dead, its node holds 5 processes still`));
    // The rest of the node is still a target, and a kill says it killed that rest, never the dead program's pid.
    const before = processesOf(dir, 'database').length;
    const killed = await lab.cli(['kill', 'contender', old!]);
    expect(killed).toMatch(
      new RegExp(`^killed ${old}'s node, (\\d+) processes \\(its program was not running\\) with SIGKILL`),
    );
    await waitFor(() => processesOf(dir, 'database').length === 10, "the old primary's database to be gone", 5000);
    expect(Number(/node, (\d+) processes/.exec(killed)![1]), 'as many as the OS saw go').toBe(before - 10);
    expect(await stillFor(dir, old!)).toBe(true);
    expect(await roleOnPort(base + numberOf(old!))).toBeNull();
  });

  it('contenders stop ends every process of the node within 5 s', async () => {
    const { dir, ids } = await spawnAgents('/ha-stop', 2);
    await lab.cli(['contenders', 'stop', ids[0]!]);
    await waitFor(
      () => processesOf(dir).every((pid) => !beat(dir, ids[0]!) || pid !== beat(dir, ids[0]!)!.pid),
      `${ids[0]}'s database to be gone`,
      5000,
    );
    expect(await stillFor(dir, ids[0]!)).toBe(true);
    await beating(dir, ids[1]!);
    await lab.cli(['contenders', 'stop', '--all']);
    await allGone(dir, ids);
  });

  it('a spawn taken back after --join-timeout leaves nothing of its nodes', async () => {
    const dir = tempDir();
    const base = await freePortBase(25);
    const r = await zklab(
      [
        'contenders',
        'spawn',
        '2',
        '--path',
        '/ha-slow',
        '--join-timeout',
        '2s',
        ...agentArgs(python, dir, base, { joinDelaySeconds: 30 }),
      ],
      { lab: paths.root },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/did not join within 2s .*the spawn was taken back/);
    // The databases had started before the agents gave up joining: they go with their nodes.
    await allGone(dir, []);
  });
});

describe.each(['marker', 'cgroup1'])('nodes held by %s', (mechanism) => {
  const own = join(tempDir(), 'lab');
  const env = { ZKLAB_CONTAINMENT: mechanism };
  const cli = async (args: string[]) => {
    const r = await zklab(args, { lab: own, env });
    if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  afterAll(async () => {
    await zklab(['ensemble', 'down', '--purge'], { lab: own, env });
  });

  it('pause, resume, kill of the program alone, and stop act on the whole node', async () => {
    expect((await zklab(['doctor'], { lab: own, env })).stdout).toMatch(new RegExp(`containment: ${mechanism}:`));
    const dir = tempDir();
    const base = await freePortBase(5);
    await cli([
      'contenders',
      'spawn',
      '1',
      '--connect',
      connect(),
      '--path',
      `/ha-${mechanism}`,
      ...agentArgs(python, dir, base),
    ]);
    await beating(dir, 'c1');
    await cli(['pause', 'contender', 'c1']);
    expect(await stillFor(dir, 'c1')).toBe(true);
    await cli(['resume', 'contender', 'c1']);
    await beating(dir, 'c1', 2000);
    await cli(['kill', 'contender', 'c1', '--scope', 'process']);
    expect(processesOf(dir, 'agent')).toEqual([]);
    await beating(dir, 'c1');
    // What a pause and a resume say they hit is the rest of the node, never the dead program's pid.
    const rest = `c1's node, ${processesOf(dir).length} processes (its program was not running)`;
    expect((await cli(['pause', 'contender', 'c1'])).trim()).toBe(`paused ${rest}`);
    expect(await stillFor(dir, 'c1')).toBe(true);
    expect((await cli(['resume', 'contender', 'c1'])).trim()).toBe(`resumed ${rest}`);
    await beating(dir, 'c1', 2000);
    await cli(['contenders', 'stop', 'c1']);
    await allGone(dir, ['c1']);
  });
});

describe('probes: what a node does, asked from outside', () => {
  const probed = async (id: string) => {
    const list = JSON.parse(await lab.cli(['contenders', 'list', '--json'])) as {
      contenders: { id: string; probe: { leads: boolean | null; why?: string } | null }[];
    };
    return list.contenders.find((c) => c.id === id)?.probe ?? null;
  };

  it('a probe that exits 0 for one node only: that node alone acts, in contenders list and inspect', async () => {
    const flags = tempDir();
    const out = await lab.cli(['contenders', 'spawn', '3', '--path', '/probe-one', '--probe', `test -e ${flags}/{id}`]);
    const ids = spawnedIds(out);
    writeFileSync(join(flags, ids[1]!), '');
    await waitFor(async () => (await probed(ids[1]!))?.leads === true, `${ids[1]} to act`, 5000);
    expect(await probed(ids[0]!)).toMatchObject({ leads: false });
    expect(await probed(ids[2]!)).toMatchObject({ leads: false });
    const snapshot = JSON.parse(await lab.cli(['inspect', '--path', '/probe-one', '--json'])) as {
      acting: { id: string; leads: boolean | null }[];
      problems: string[];
    };
    expect(snapshot.acting.filter((a) => a.leads).map((a) => a.id)).toEqual([ids[1]]);
    expect(snapshot.problems).toEqual([]);
    // A second node that acts is a split brain, said at once.
    writeFileSync(join(flags, ids[2]!), '');
    await waitFor(async () => (await probed(ids[2]!))?.leads === true, `${ids[2]} to act`, 5000);
    const again = JSON.parse(await lab.cli(['inspect', '--path', '/probe-one', '--json'])) as { problems: string[] };
    expect(again.problems).toEqual([`${ids[1]} and ${ids[2]} both act as leader now, by their probes`]);
  });

  it('a probe follows its spawn: a later spawn under a taken-back id is asked with its own probe', async () => {
    // The probe shells the kernel runs, by the words of their command lines.
    const probeShells = (word: string) =>
      processesOf(word).filter((pid) => {
        try {
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return argv.includes('zklab-probe') && argv.includes(word);
        } catch {
          return false;
        }
      });
    // Another probed node keeps the prober at work throughout, as in a lab with probes of its own.
    spawnedIds(await lab.cli(['contenders', 'spawn', '1', '--path', '/probe-keep', '--probe', 'true']));
    const flag = join(tempDir(), 'exit-now');
    const old = execa(
      process.execPath,
      [
        ZKLAB_BIN,
        'contenders',
        'spawn',
        '1',
        '--lab',
        paths.root,
        '--path',
        '/probe-reuse',
        '--probe',
        "/bin/sh -c 'exit 0' OLD",
        '--exec',
        '--',
        '/bin/sh',
        '-c',
        `while [ ! -e ${flag} ]; do sleep 0.05; done`,
      ],
      { reject: false, env: { FORCE_COLOR: '0' }, stdin: 'ignore' },
    );
    await waitFor(() => probeShells('OLD').length === 1, 'the old spawn to be probed', 10_000);
    const oldId = readState(paths)!.contenders.at(-1)!.id;
    // The prober frozen from here until the new spawn runs: it cannot see the old node go before the new one comes.
    const prober = Number(readFileSync(paths.proberPidFile, 'utf8').trim());
    process.kill(prober, 'SIGSTOP');
    try {
      writeFileSync(flag, '');
      const taken = await old;
      expect(taken.exitCode, taken.stderr).not.toBe(0);
      expect(taken.stderr).toMatch(/exited with code 0 before it joined/);
      const [newId] = spawnedIds(
        await lab.cli(['contenders', 'spawn', '1', '--path', '/probe-reuse', '--probe', "/bin/sh -c 'exit 1' NEW"]),
      );
      expect(newId, 'the later spawn takes the id back').toBe(oldId);
    } finally {
      process.kill(prober, 'SIGCONT');
    }
    await waitFor(() => probeShells('NEW').length === 1, 'the new spawn to be probed with its own probe', 5000);
    expect(probeShells('OLD')).toEqual([]);
    await waitFor(async () => (await probed(oldId))?.leads === false, `${oldId} to be probed not acting`, 5000);
    await lab.cli(['contenders', 'stop', '--all']);
  });

  it('a probe that hangs is killed past its patience (2 s, more than its interval) and recorded as unknown; the lab goes on', async () => {
    // The probe's own processes: `sleep 2.537`, by the command line the kernel shows.
    const isSleep = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\x002.537\x00';
      } catch {
        return false;
      }
    };
    const sleeps = () => processesOf('2.537').filter(isSleep).length;
    const out = await lab.cli([
      'contenders',
      'spawn',
      '1',
      '--path',
      '/probe-hang',
      '--probe',
      'sleep 2.537',
      '--probe-interval',
      '300ms',
    ]);
    const [id] = spawnedIds(out);
    await waitFor(async () => (await probed(id!))?.leads === null, 'the probe to be unknown', 5000);
    expect((await probed(id!))?.why).toMatch(/hung past 2000ms/);
    // Killed each time: never more than one at a time, none left once the node is gone.
    for (let i = 0; i < 5; i++) {
      expect(sleeps()).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await lab.zk().getChildren('/probe-hang')).length).toBe(1);
    await lab.cli(['contenders', 'stop', '--all']);
    await waitFor(() => sleeps() === 0, 'no probe left', 3000);
  });

  it('a probe slower than its interval is waited for, and its word says how late it may be', async () => {
    const out = await lab.cli([
      'contenders',
      'spawn',
      '1',
      '--path',
      '/probe-slow',
      '--probe',
      "sh -c 'sleep 0.7'",
      '--probe-interval',
      '250ms',
    ]);
    const [id] = spawnedIds(out);
    const word = () =>
      readFileSync(paths.contenderEvents(id!), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: string; leads?: boolean | null; lateMs?: number })
        .find((e) => e.event === 'probed');
    await waitFor(() => word() !== undefined, 'the slow probe to say something', 5000);
    expect(word()?.leads).toBe(true);
    expect(word()?.lateMs).toBeGreaterThanOrEqual(700);
    await lab.cli(['contenders', 'stop', '--all']);
  });

  it('refuses a probe that does not exist, or names a placeholder it does not know: one line, exit 2, lab unchanged', async () => {
    const before = readState(paths)!;
    const missing = await zklab(['contenders', 'spawn', '2', '--probe', 'no-such-probe {id}'], { lab: paths.root });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('zklab: probe: the program "no-such-probe" is not on the PATH');
    const unknown = await zklab(['contenders', 'spawn', '2', '--probe', 'check {port}'], { lab: paths.root });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toMatch(/^zklab: --probe: \{port\} is not a placeholder$/);
    const after = readState(paths)!;
    expect(after.contenders).toEqual(before.contenders);
    expect(after.nextContender).toBe(before.nextContender);
  });
});

interface Result {
  readonly passed: boolean;
  readonly checks: {
    name: string;
    passed: boolean;
    details: { level: string; message: string }[];
    measurements: { name: string; value: number }[];
  }[];
}

async function drillFile(
  name: string,
  scope: 'node' | 'process',
): Promise<{ file: string; dir: string; base: number }> {
  const dir = tempDir();
  const base = await freePortBase(5);
  const file = join(tempDir(), `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
ensemble: { servers: 1 }
contenders:
  count: 2
  exec: [${python}, ${HA_AGENT}, agent, --dir, ${dir}, --port-base, "${base}"]
  path: /ha
  leaderRule: single-node leader
  probe: [${python}, ${HA_PROBE}, "${base}", "{n}"]
steps:
  - wait: { leader: true, timeout: 20s }
  - sleep: 1s
  - kill: { target: leader, scope: ${scope} }
  - expect: { newLeaderWithin: 8s }
  - sleep: 3s
checks: [singleLeader]
`,
  );
  return { file, dir, base };
}

// The first two drills run side by side (each its own lab, directory and ports), mostly waiting on sessions.
describe('drills of a system whose data plane outlives its agent', () => {
  it.concurrent('kill of the leader agent alone: singleLeader fails, the two primaries measured; nothing is left after', async () => {
    const { file, dir } = await drillFile('ha-agent-dies', 'process');
    const r = await zklab(['drill', 'run', file, '--json'], { timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    const result = JSON.parse(r.stdout) as Result;
    const single = result.checks.find((c) => c.name === 'singleLeader')!;
    expect(single.passed).toBe(false);
    const both = single.measurements.find((m) => m.name === 'two nodes acting (probes)')!;
    expect(both.value).toBeGreaterThan(2000);
    expect(single.details.map((d) => d.message).join('\n')).toMatch(
      /c\d and c\d both acted as leader by their probes for [\d.]+s at \+[\d.]+s/,
    );
    // The databases' own last words: both said primary.
    expect([beat(dir, 'c1')?.role, beat(dir, 'c2')?.role]).toEqual(['primary', 'primary']);
    await allGone(dir, ['c1', 'c2']);
  }, 150_000);

  it.concurrent('kill of the leader node: singleLeader passes, and nothing is left after', async () => {
    const { file, dir } = await drillFile('ha-node-dies', 'node');
    const r = await zklab(['drill', 'run', file, '--json'], { timeoutMs: 120_000 });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const single = (JSON.parse(r.stdout) as Result).checks.find((c) => c.name === 'singleLeader')!;
    expect(single.passed).toBe(true);
    await allGone(dir, ['c1', 'c2']);
  }, 150_000);

  it('SIGKILL of the drill run leaves no process of its nodes within 5 s', async () => {
    const { file, dir } = await drillFile('ha-owner-dies', 'node');
    const run = execa(process.execPath, [ZKLAB_BIN, 'drill', 'run', file], { reject: false, stdin: 'ignore' });
    await waitFor(() => beat(dir, 'c1') && beat(dir, 'c2'), 'both databases to beat', 60_000);
    await beating(dir, 'c1');
    run.kill('SIGKILL');
    await run;
    await allGone(dir, ['c1', 'c2']);
    expect(processesOf(readFileSync(file, 'utf8').match(/--dir, (\S+),/)![1]!)).toEqual([]);
  }, 120_000);
});

describe('a join that takes a minute, and a lab that goes down', () => {
  it('a program that takes 45 s to join succeeds with --join-timeout 60s; ensemble down then ends its node', async () => {
    const r = await slow!;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toMatch(/waiting for c1 to join/);
    const stat = await lab.zk().exists('/ha-minute/members/c1');
    expect(stat?.ephemeralOwner).not.toMatch(/^(0x)?0+$/);
    await beating(slowDir, 'c1');
    const down = await zklab(['ensemble', 'down'], { lab: slowLab });
    expect(down.exitCode, down.stderr).toBe(0);
    await allGone(slowDir, ['c1']);
  }, 90_000);
});
