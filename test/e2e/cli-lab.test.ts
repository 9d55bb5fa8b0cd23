import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked, waitForExit } from '../../src/lab/node/procs.js';
import { probeSrvr } from '../../src/zk/four-letter.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { zkLeaderContender } from '../helpers/contenders.js';
import { snapshotDir } from '../helpers/lab-snapshot.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { isFrozen } from '../helpers/frozen.js';

const lab = `${tempDir()}/lab`;

beforeAll(async () => {
  const r = await zklab(['ensemble', 'up', '-n', '3'], { lab });
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await zklab(['ensemble', 'down', '--purge'], { lab });
});

describe('the CLI on a running lab', () => {
  it('up on a lab that is up says so and shows the status', async () => {
    const r = await zklab(['ensemble', 'up'], { lab });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/already up/);
    expect(r.stdout).toMatch(/zk1 .*(leader|follower)/);
  });

  it('status --json gives every server as the servers report it', async () => {
    const r = await zklab(['ensemble', 'status', '--json'], { lab });
    expect(r.exitCode).toBe(0);
    const j = JSON.parse(r.stdout) as {
      servers: { id: number; name: string; clientPort: number; mode: string; pid: number }[];
    };
    expect(j.servers.map((s) => s.name)).toEqual(['zk1', 'zk2', 'zk3']);
    for (const s of j.servers) {
      expect(s.pid).toBeGreaterThan(0);
      expect(s.mode).toBe((await probeSrvr(s.clientPort)).mode);
    }
    expect(j.servers.filter((s) => s.mode === 'leader')).toHaveLength(1);
  });

  it.each([
    [['ensemble', 'up', '--servers', '5'], /already up with 3 servers/],
    [['kill', 'server', 'zk9'], /there is no server "zk9"/],
    [['pause', 'server', 'zk7'], /there is no server "zk7"/],
    [['ensemble', 'restart', 'zk12'], /there is no server "zk12"/],
    [['logs', 'zk9'], /there is no "zk9" in this lab/],
    [['kill', 'leader'], /no contender is running/],
    [['kill', 'contender', 'c9'], /there is no contender "c9"/],
    [['contenders', 'spawn', '0'], /whole number from 1 to 200/],
    [['contenders', 'spawn', '2', '--recipe', 'paxos'], /--recipe: "paxos" is unknown/],
    [['resume', 'server', 'zk1'], /zk1 is not paused/],
  ])('%j: one line, exit 2, the lab unchanged', async (args, message) => {
    const before = snapshotDir(lab);
    const r = await zklab(args as string[], { lab });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(snapshotDir(lab)).toEqual(before);
  });

  it('fits a 100-column terminal: spawn, contenders list and ensemble status, measured on their real output', async () => {
    const widest = (text: string) => Math.max(...text.split('\n').map((l) => stripVTControlCharacters(l).length));
    const spawned = await zklab(['contenders', 'spawn', '5'], { lab });
    expect(spawned.exitCode, spawned.stderr).toBe(0);
    const lock = await zklab(['contenders', 'spawn', '2', '--workload', 'lock', '--hold', '1s'], { lab });
    expect(lock.exitCode, lock.stderr).toBe(0);
    // A spawn shows what it started, and counts the others.
    expect(lock.stdout).toMatch(/^5 other contenders running: `zklab contenders list`$/m);
    expect(lock.stdout).not.toMatch(/^c1 /m);
    expect((await zklab(['kill', 'contender', 'c3'], { lab })).exitCode).toBe(0);
    const list = await zklab(['contenders', 'list'], { lab });
    expect(list.stdout).toMatch(/^1 dead or stopped contender not shown: `zklab contenders list --all`$/m);
    expect(list.stdout).not.toMatch(/^c3 /m);
    expect((await zklab(['contenders', 'list', '--all'], { lab })).stdout).toMatch(/^c3 /m);
    const status = await zklab(['ensemble', 'status'], { lab });
    for (const out of [spawned.stdout, lock.stdout, list.stdout, status.stdout])
      expect(widest(out)).toBeLessThanOrEqual(100);
    expect(widest((await zklab(['contenders', 'list', '--wide'], { lab })).stdout)).toBeGreaterThan(100);
    await zklab(['contenders', 'stop', '--all'], { lab });
  });

  it('says what is true: who is paused after pause leader, what up suggests with contenders running, restart all', async () => {
    const spawn = await zklab(['contenders', 'spawn', '3'], { lab });
    expect(spawn.exitCode, spawn.stderr).toBe(0);
    const ids = /^spawned (c\d+), (c\d+), (c\d+)/m.exec(spawn.stdout)!.slice(1);
    const paths = new LabPaths(lab);
    // Killed contenders of the tests before lead on until their sessions expire: wait for one of these three.
    await waitFor(async () => ids.includes((await zkLeaderContender(paths)) ?? ''), 'one of the three to lead', 15_000);
    const up = await zklab(['ensemble', 'up'], { lab });
    expect(up.stdout).toMatch(/^3 contenders running: `zklab contenders list`, `zklab inspect`/m);
    const pause = await zklab(['pause', 'leader'], { lab });
    const paused = /paused (c\d+) \(pid (\d+)\)/.exec(pause.stdout);
    expect(paused, `${pause.stdout}${pause.stderr}`).not.toBeNull();
    const [, frozen, pid] = paused!;
    // Its session expires while it is frozen: another contender leads by ZooKeeper's own znodes.
    await waitFor(
      async () => {
        const now = await zkLeaderContender(paths);
        return now !== null && now !== frozen;
      },
      'another leader',
      15_000,
    );
    const refused = await zklab(['resume', 'leader'], { lab });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^zklab: c\\d+ leads now and is not paused; paused: ${frozen} `));
    expect(refused.stderr).toMatch(new RegExp(`zklab resume contender ${frozen}\`.*zklab resume paused`));
    expect(isFrozen(Number(pid))).toBe(true);
    const resumed = await zklab(['resume', 'paused'], { lab });
    expect(resumed.stdout.trim()).toBe(`resumed ${frozen} (pid ${pid})`);
    expect(isFrozen(Number(pid))).toBe(false);
    const kill = await zklab(['kill', 'leader'], { lab });
    expect(kill.stdout).toMatch(
      /^killed c\d+ \(pid \d+\), the leader by ZooKeeper's own state, with SIGKILL; its session/,
    );
    // The servers (tick 200ms) grant 2 ticks to 60s: 300ms asked is 400ms granted, and spawn says so.
    const short = await zklab(['contenders', 'spawn', '1', '--session-timeout', '300ms', '--path', '/short'], { lab });
    expect(short.stdout.replace(/\n\s+/g, ' ')).toMatch(
      /session timeout 400ms as the servers granted it, 300ms asked: the lab's servers grant 400ms to 1m00s/,
    );
    const restart = await zklab(['ensemble', 'restart', 'all'], { lab });
    expect(restart.stdout).toMatch(/^the ensemble was unavailable for [\d.]+m?s \(SIGKILL until serving again\)$/m);
    await zklab(['contenders', 'stop', '--all'], { lab });
  }, 60_000);

  it('allows an even ensemble with a warning', async () => {
    const even = `${tempDir()}/lab`;
    try {
      const r = await zklab(['ensemble', 'up', '--servers', '2'], { lab: even });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: 2 servers/);
    } finally {
      await zklab(['ensemble', 'down', '--purge'], { lab: even });
    }
  });
});

describe('interrupted and crashed commands leave nothing behind', () => {
  it('Ctrl-C during up stops what was started', async () => {
    const dir = `${tempDir()}/lab`;
    const child = execa(process.execPath, [ZKLAB_BIN, 'ensemble', 'up', '--lab', dir], {
      reject: false,
      env: { FORCE_COLOR: '0' },
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitFor(
      () => stderr.includes('starting') && findMarked([new LabPaths(dir).jvmMarker]).length === 3,
      'the JVMs to be launched',
    );
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(/interrupted/);
    expect(findMarked([new LabPaths(dir).jvmMarker])).toEqual([]);
  });

  it('servers that cannot start: up names the server, shows its log and stops what it started', async () => {
    const dir = `${tempDir()}/lab`;
    const fakeHome = tempDir();
    mkdirSync(`${fakeHome}/lib`);
    writeFileSync(`${fakeHome}/lib/zookeeper-3.8.0.jar`, 'not a jar');
    const r = await zklab(['ensemble', 'up'], { lab: dir, env: { ZOOKEEPER_HOME: fakeHome } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/zk\d exited while the ensemble was starting/);
    expect(r.stderr).toMatch(/QuorumPeerMain|main class|Error/);
    expect(findMarked([new LabPaths(dir).jvmMarker])).toEqual([]);
  });

  it('down stops processes carrying the lab marker even when up died before writing the lab state', async () => {
    const dir = `${tempDir()}/lab`;
    mkdirSync(dir, { recursive: true });
    const paths = new LabPaths(dir);
    // What a JVM launched by an `up` killed before its state write looks like: only the marker names the lab.
    const orphan = execa(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', paths.jvmMarker], {
      reject: false,
    });
    await waitFor(() => findMarked([paths.jvmMarker]).length === 1, 'the marked process to start');
    const r = await zklab(['ensemble', 'down'], { lab: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await waitForExit([orphan.pid!], 5000)).toEqual([]);
    await orphan;
  });

  it('a SIGKILLed up leaves servers that down finds and stops', async () => {
    const dir = `${tempDir()}/lab`;
    const paths = new LabPaths(dir);
    const child = execa(process.execPath, [ZKLAB_BIN, 'ensemble', 'up', '--lab', dir], { reject: false });
    await waitFor(() => findMarked([paths.jvmMarker]).length === 3, 'the JVMs to be launched');
    child.kill('SIGKILL');
    await child;
    const orphans = findMarked([paths.jvmMarker]);
    expect(orphans).toHaveLength(3);
    const r = await zklab(['ensemble', 'down'], { lab: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await waitForExit(orphans, 5000)).toEqual([]);
    expect(findMarked([paths.jvmMarker])).toEqual([]);
  });
});
