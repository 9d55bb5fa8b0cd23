import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { fourLetterWord } from '../../src/zk/four-letter.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { zklab } from '../helpers/cli.js';
import { sharedEnsemble } from '../helpers/shared-ensemble.js';
import { zkLeaderContender, zkMembers } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Programs zklab did not write, run as contenders on one shared 3-server ensemble: a hand-written election on
 * kazoo's plain client (test/programs/raw_election.py, which says nothing of what it believes), and the Curator and
 * kazoo adapters. Who leads is always read from ZooKeeper itself (the znodes' data names the contender, their
 * ephemeralOwner the session), never from zklab's own mapping, which is what is under test.
 */
const paths = tempLab();
const lab = paths.root;
const RAW = join(PACKAGE_ROOT, 'test', 'programs', 'raw_election.py');
const PYTHON = '/usr/bin/python3';

sharedEnsemble(paths);

// Each test's contenders go with it: `leader` names one election's leader, and the next test has its own.
afterEach(async () => {
  await zklab(['contenders', 'stop', '--all'], { lab });
}, 60_000);

/** Runs the CLI on the shared lab (through ZKLAB_LAB: a --lab after `--` would be the program's). */
async function cli(args: string[]): Promise<string> {
  const r = await zklab(args, { env: { ZKLAB_LAB: lab } });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The sessions the servers list in `cons` (sid=0x…), lower-case hex without 0x. */
async function consSessions(): Promise<Set<string>> {
  const out = new Set<string>();
  for (const s of readState(paths)!.servers) {
    for (const m of (await fourLetterWord(s.clientPort, 'cons')).matchAll(/sid=0x([0-9a-f]+)/g))
      out.add(m[1]!.replace(/^0+(?=.)/, ''));
  }
  return out;
}

interface ListJson {
  readonly contenders: readonly {
    id: string;
    state: string;
    sessionId: string | null;
    zookeeper: { leads: boolean } | null;
  }[];
}

async function list(): Promise<ListJson> {
  return JSON.parse(await cli(['contenders', 'list', '--json'])) as ListJson;
}

/** What the program itself last said it is, from the lines it reported (recorded in its event log as written). */
function believes(id: string): 'leader' | 'follower' | null {
  const lines = readFileSync(paths.contenderEvents(id), 'utf8').trim().split('\n');
  const said = lines
    .map((l) => JSON.parse(l) as { event: string })
    .filter((e) => e.event === 'leader' || e.event === 'follower');
  return (said.at(-1)?.event as 'leader' | 'follower' | undefined) ?? null;
}

async function inspectLeader(path: string): Promise<string | null> {
  const s = JSON.parse(await cli(['inspect', '--once', '--json', '--path', path])) as {
    nodes: { leader: boolean; contender: string | null }[];
  };
  return (
    s.nodes
      .filter((n) => n.leader)
      .map((n) => n.contender ?? 'foreign')
      .join(',') || null
  );
}

describe('any program as a contender: a Python election zklab knows nothing about', () => {
  it('kill leader kills the process ZooKeeper says leads; partition isolate leader lets its session expire; the next takes over', async () => {
    const spawned = await cli([
      'contenders',
      'spawn',
      '3',
      '--path',
      '/raw',
      '--json',
      '--exec',
      '--',
      PYTHON,
      RAW,
      '{connect}',
      '{path}',
      '{session}',
    ]);
    const ids = (JSON.parse(spawned) as { contenders: { id: string }[] }).contenders.map((c) => c.id);
    expect(ids).toHaveLength(3);
    const members = await waitFor(
      async () => ((await zkMembers(paths, '/raw')).size === 3 ? zkMembers(paths, '/raw') : null),
      'three znodes under /raw',
    );

    const first = await waitFor(() => zkLeaderContender(paths, '/raw'), 'ZooKeeper to name a leader on /raw');
    const firstPid = await programPid('/raw', first);
    expect(alive(firstPid)).toBe(true);
    const killed = await cli(['kill', 'leader']);
    expect(killed).toContain(`killed ${first}`);
    await waitFor(() => !alive(firstPid), `${first}'s program (pid ${firstPid}) to be gone`, 5000);

    const second = await waitFor(
      async () => {
        const id = await zkLeaderContender(paths, '/raw');
        return id !== null && id !== first ? id : null;
      },
      'ZooKeeper to name the next leader',
      2000 + 5000,
    );
    const secondSession = members.get(second)!.owner;
    expect(await cli(['partition', 'isolate', 'leader'])).toContain(`isolate ${second}`);
    // The servers expire the isolated session: its znode goes and no server lists the session any more.
    await waitFor(
      async () => !(await zkMembers(paths, '/raw')).has(second) && !(await consSessions()).has(secondSession),
      `${second}'s session 0x${secondSession} to expire on the servers`,
      15_000,
      100,
    );
    const third = ids.find((id) => id !== first && id !== second)!;
    await waitFor(async () => (await zkLeaderContender(paths, '/raw')) === third, `${third} to lead`, 10_000);
    expect(alive(await programPid('/raw', third))).toBe(true);
    await cli(['heal', 'all']);
  }, 90_000);
});

/** The program's own pid, as it wrote it into its znode. */
async function programPid(path: string, id: string): Promise<number> {
  const { ZkClient } = await import('../../src/zk/client.js');
  const { directConnectString } = await import('../../src/lab/state.js');
  const zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 10_000,
    connectTimeoutMs: 5000,
    quiet: true,
  });
  try {
    const znode = (await zkMembers(paths, path)).get(id)!.znode;
    return (JSON.parse((await zk.getData(znode)).data.toString('utf8')) as { pid: number }).pid;
  } finally {
    await zk.close();
  }
}

describe.each([
  { recipe: 'curator-latch', path: '/curator' },
  { recipe: 'kazoo-election', path: '/kazoo' },
])('the $recipe adapter', ({ recipe, path }) => {
  const SESSION_MS = 3000;

  it('three elect one leader; inspect and contenders list mark the one the client reports; a kill hands over within the session timeout + 1 s', async () => {
    const spawned = await cli([
      'contenders',
      'spawn',
      '3',
      '--recipe',
      recipe,
      '--path',
      path,
      '--session-timeout',
      String(SESSION_MS),
      '--json',
    ]);
    const ids = (JSON.parse(spawned) as { contenders: { id: string }[] }).contenders.map((c) => c.id);
    const leader = await waitFor(
      async () => {
        const zk = await zkLeaderContender(paths, path);
        const said = ids.map(believes);
        const believers = ids.filter((_, k) => said[k] === 'leader');
        // Each client says where it stands a moment after it joins: wait until all three have said it.
        return zk !== null && believers.length === 1 && believers[0] === zk && !said.includes(null) ? zk : null;
      },
      `ZooKeeper and the ${recipe} clients to agree on one leader`,
      20_000,
      50,
    );
    expect(ids.filter((id) => id !== leader).map(believes)).toEqual(['follower', 'follower']);
    expect(await inspectLeader(path)).toBe(leader);
    const listed = (await list()).contenders.filter((c) => ids.includes(c.id));
    expect(listed.filter((c) => c.zookeeper?.leads).map((c) => c.id)).toEqual([leader]);
    expect(listed.filter((c) => c.state === 'leader').map((c) => c.id)).toEqual([leader]);

    expect(await cli(['kill', 'leader'])).toContain(`killed ${leader}`);
    const killedAt = Date.now();
    const next = await waitFor(
      async () => {
        const zk = await zkLeaderContender(paths, path);
        return zk !== null && zk !== leader && believes(zk) === 'leader' ? zk : null;
      },
      `another ${recipe} client to lead`,
      SESSION_MS + 5000,
      25,
    );
    const handOverMs = Date.now() - killedAt;
    expect(handOverMs, `${next} took over ${handOverMs} ms after the kill`).toBeLessThanOrEqual(SESSION_MS + 1000);
    expect(await inspectLeader(path)).toBe(next);
  }, 90_000);
});

describe('the session → contender mapping', () => {
  it('agrees with ZooKeeper for 10 contenders of four kinds, and every session is one the servers list in cons', async () => {
    const before = new Set(readState(paths)!.contenders.map((c) => c.id));
    await cli(['contenders', 'spawn', '3', '--recipe', 'curator-latch', '--path', '/mixed']);
    await cli(['contenders', 'spawn', '3', '--recipe', 'kazoo-election', '--path', '/mixed']);
    await cli([
      'contenders',
      'spawn',
      '2',
      '--path',
      '/mixed',
      '--exec',
      '--',
      PYTHON,
      RAW,
      '{connect}',
      '{path}',
      '{session}',
    ]);
    await cli(['contenders', 'spawn', '2', '--recipe', 'predecessor', '--path', '/mixed']);
    const ids = readState(paths)!
      .contenders.map((c) => c.id)
      .filter((id) => !before.has(id));
    expect(ids).toHaveLength(10);
    const truth = await waitFor(async () => {
      const m = await zkMembers(paths, '/mixed');
      return ids.every((id) => m.has(id)) ? m : null;
    }, 'a znode of each of the 10 contenders under /mixed');
    const cons = await consSessions();
    const listed = new Map((await list()).contenders.map((c) => [c.id, c.sessionId] as const));
    for (const id of ids) {
      const owner = truth.get(id)!.owner;
      expect(listed.get(id), `${id}: zklab's session against the owner of its znode`).toBe(`0x${owner}`);
      expect(cons.has(owner), `${id}'s session 0x${owner} in the servers' cons`).toBe(true);
    }
    const leader = await zkLeaderContender(paths, '/mixed');
    expect(await inspectLeader('/mixed')).toBe(leader);
  }, 120_000);
});

describe('bad input: one line, exit 2, the lab unchanged', () => {
  const labFiles = () => ({
    state: readFileSync(paths.stateFile, 'utf8'),
    events: readdirSync(paths.eventsDir).sort(),
    marked: findMarked(paths.markers).length,
  });
  const sh = '/bin/sh';

  it.each([
    [
      '--exec without a program',
      ['contenders', 'spawn', '2', '--exec'],
      {},
      /--exec: needs a program and its arguments/,
    ],
    [
      'a program that does not exist',
      ['contenders', 'spawn', '2', '--exec', '--', '/no/such/program'],
      {},
      /does not exist or is not executable/,
    ],
    [
      'a program not on the PATH',
      ['contenders', 'spawn', '2', '--exec', '--', 'no-such-program-zklab'],
      {},
      /is not on the PATH/,
    ],
    [
      'a program that exits at once',
      ['contenders', 'spawn', '2', '--exec', '--', sh, '-c', 'echo "cannot reach {connect}" >&2; exit 3'],
      {},
      /exited with code 3 before it joined[\s\S]*cannot reach 127\.0\.0\.1:/,
    ],
    [
      'an unknown leader rule',
      ['contenders', 'spawn', '2', '--leader-rule', 'loudest', '--exec', '--', sh],
      {},
      /--leader-rule: "loudest" is not a leader rule/,
    ],
    [
      'Curator without its jars',
      ['contenders', 'spawn', '2', '--recipe', 'curator-latch'],
      { CURATOR_CLASSPATH: '/nonexistent/curator.jar' },
      /CURATOR_CLASSPATH|libcurator-recipes-java/,
    ],
    [
      'kazoo without kazoo',
      ['contenders', 'spawn', '2', '--recipe', 'kazoo-election'],
      { ZKLAB_PYTHON: '/bin/false' },
      /python3-kazoo/,
    ],
  ] as const)(
    '%s',
    async (_, args, env, message) => {
      const before = labFiles();
      const r = await zklab([...args], { env: { ZKLAB_LAB: lab, ...env } });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n')[0]).toMatch(/^zklab: /);
      const after = labFiles();
      expect(after.events).toEqual(before.events);
      expect(JSON.parse(after.state)).toEqual(JSON.parse(before.state));
      expect(after.marked).toBe(before.marked);
    },
    60_000,
  );
});

describe('a program that never joins', () => {
  it('is waited for with progress on stderr, then taken back at --join-timeout: exit 2, nothing of it running', async () => {
    const marker = `never-joins-${process.pid}-${Date.now()}`;
    const running = () =>
      readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
          } catch {
            return false;
          }
        });
    const before = readFileSync(paths.stateFile, 'utf8');
    const r = await zklab(
      ['contenders', 'spawn', '2', '--join-timeout', '4s', '--exec', '--', '/bin/sh', '-c', `sleep 60; : ${marker}`],
      { env: { ZKLAB_LAB: lab } },
    );
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^waiting for c\d+, c\d+ to join \(\d+s left\)$/m);
    expect(r.stderr).toMatch(/^zklab: contenders c\d+, c\d+ did not join within 4s .*the spawn was taken back$/m);
    expect(running()).toEqual([]);
    expect(JSON.parse(readFileSync(paths.stateFile, 'utf8'))).toEqual(JSON.parse(before));
  }, 30_000);
});

describe('one rule per election path', () => {
  it('refuses programs judged by another leader rule beside live contenders, exit 2, the lab unchanged', async () => {
    await cli(['contenders', 'spawn', '1', '--recipe', 'predecessor', '--path', '/rules']);
    const before = readFileSync(paths.stateFile, 'utf8');
    const r = await zklab(
      [
        'contenders',
        'spawn',
        '1',
        '--path',
        '/rules',
        '--leader-rule',
        'single-node',
        'leader',
        '--exec',
        '--',
        PYTHON,
        RAW,
        '{connect}',
        '{path}',
        '{session}',
      ],
      { env: { ZKLAB_LAB: lab } },
    );
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^zklab: \/rules already has contenders that lead by lowest-sequence \(c\d+\); these would lead by single-node leader/,
    );
    expect(JSON.parse(readFileSync(paths.stateFile, 'utf8'))).toEqual(JSON.parse(before));
  }, 60_000);
});

describe('drill run --connect: contender faults against an ensemble the drill did not start', () => {
  const connect = () =>
    readState(paths)!
      .servers.map((s) => `127.0.0.1:${s.clientPort}`)
      .join(',');

  it("runs a drill of silent programs, judged by ZooKeeper's view, through link proxies of their own", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zklab-outside-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'outside.yaml');
    writeFileSync(
      file,
      `name: outside\ncontenders: { count: 3, exec: [${PYTHON}, ${RAW}, "{connect}", "{path}", "{session}"], sessionTimeout: 2s }\nsteps:\n` +
        '  - wait: { joined: 3, timeout: 30s }\n  - wait: { leader: true, timeout: 20s }\n  - kill: leader\n  - expect: { newLeaderWithin: 6s }\n' +
        '  - partition: { isolate: leader }\n  - expect: { newLeaderWithin: 8s }\n  - heal: all\nchecks: [singleLeader, liveness]\n',
    );
    const r = await zklab(['drill', 'run', file, '--connect', connect(), '--json'], { timeoutMs: 120_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      verdict: string;
      steps: { description: string; outcome: string }[];
      leadership: { contender: string }[];
    };
    expect(report.verdict).toBe('passed');
    expect(report.steps.find((s) => s.description.startsWith('partition'))?.description).toMatch(/isolate leader → c2/);
    expect(report.leadership.map((l) => l.contender)).toEqual(['c1', 'c2', 'c3']);
    // The drill's contenders went with its lab (killed: their sessions expire); the borrowed ensemble serves on.
    await waitFor(
      async () => (await zkMembers(paths, '/election')).size === 0,
      "the drill contenders' sessions to expire",
      10_000,
      100,
    );
  }, 120_000);

  it("says whose session ZooKeeper names when another client's znode leads the election", async () => {
    // A client of the borrowed ensemble that is none of the drill's: its znode is the lowest under the path.
    const owner = execa(
      PYTHON,
      [
        '-c',
        'import sys,time\nfrom kazoo.client import KazooClient\nzk=KazooClient(hosts=sys.argv[1]);zk.start()\n' +
          'zk.ensure_path("/foreign-owned");zk.create("/foreign-owned/n_",ephemeral=True,sequence=True)\n' +
          'print("ready",flush=True);time.sleep(120)',
        connect(),
      ],
      { reject: false, stdin: 'ignore' },
    );
    onTestFinished(() => void owner.kill('SIGKILL'));
    await new Promise<void>((ok) => owner.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && ok()));
    const dir = mkdtempSync(join(tmpdir(), 'zklab-outside-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'owned.yaml');
    writeFileSync(
      file,
      'name: owned\ncontenders: { count: 2, path: /foreign-owned }\nsteps:\n' +
        '  - wait: { joined: 2, timeout: 20s }\n  - wait: { leader: true, timeout: 2s }\n',
    );
    const r = await zklab(['drill', 'run', file, '--connect', connect()], { timeoutMs: 90_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stdout + r.stderr).toMatch(
      /none of the drill's contenders leads: ZooKeeper names session 0x[0-9a-f]+ \(\/foreign-owned\/n_0+\), which is not one of them/,
    );
  }, 120_000);

  it('refuses a drill with server faults in one line, exit 2, before anything starts', async () => {
    const r = await zklab(['drill', 'run', 'zk-leader-isolation', '--connect', connect()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^zklab: drill zk-leader-isolation acts on a server \(line \d+: partition zk-leader\); with --connect only contenders/,
    );
  });
});
