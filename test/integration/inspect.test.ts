import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { listContenders, type ContenderInfo } from '../../src/contenders/service.js';
import { normalizeSessionId } from '../../src/zk/session-id.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { killServer } from '../../src/faults/server-signals.js';
import { InspectSource } from '../../src/inspect/source/inspect-source.js';
import { leaderNode, type Snapshot } from '../../src/inspect/snapshot.js';
import { resolveInspectTarget } from '../../src/inspect/target.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { zklab } from '../helpers/cli.js';
import { spawn } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { watchFacts } from '../helpers/zk-facts.js';
import { bySequence, quorumLeader } from '../helpers/zk-raw.js';
import { nextSnapshot } from '../helpers/snapshots.js';
import { labLogTails } from '../helpers/lab-logs.js';

const paths = tempLab();
const PATH = '/election';
let zk: ZkClient;
const sources: InspectSource[] = [];

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3, tickMs: 200 });
  await spawn(paths, { count: 5, path: PATH });
  zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 4000,
    connectTimeoutMs: 10_000,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(sources.map((s) => s.stop()));
  await zk?.close();
  await ensembleDown(paths, { purge: true });
});

function startSource(path = PATH): InspectSource {
  const source = InspectSource.start({ target: resolveInspectTarget({ paths, path }) });
  sources.push(source);
  return source;
}

/** Live contenders in sequence order once every follower's predecessor watch shows up in wchp. */
async function settledChain(): Promise<ContenderInfo[]> {
  return waitFor(
    async () => {
      const live = listContenders(paths).filter((c) => c.alive && c.znode && c.path === PATH);
      if (!live.every((c) => c.state === 'leader' || c.state === 'follower')) return null;
      const facts = await watchFacts(readState(paths)!);
      if (facts.dataWatches !== live.length - 1) return null;
      const order = bySequence(live.map((c) => c.znode!.slice(PATH.length + 1)));
      return order.map((name) => live.find((c) => c.znode === `${PATH}/${name}`)!);
    },
    'a settled election: one leader, every follower watching its predecessor',
    30_000,
    100,
  );
}

describe('zklab inspect on a real 3-server ensemble with 5 predecessor contenders', () => {
  it('--json agrees with what ZooKeeper lists and with wchp', async () => {
    const chain = await settledChain();
    const r = await zklab(['inspect', '--json'], { lab: paths.root });
    expect(r.exitCode, r.stderr).toBe(0);
    const snapshot = JSON.parse(r.stdout) as Snapshot;

    // What ZooKeeper itself lists, after the CLI's own session (and its watches) are gone.
    const children = await zk.getChildren(PATH);
    const facts = await watchFacts(readState(paths)!);
    const contenders = listContenders(paths);
    const owner = (session: string) =>
      contenders.find((c) => c.sessions.map(normalizeSessionId).includes(normalizeSessionId(session)));

    expect(snapshot).toMatchObject({ path: PATH, exists: true, layout: 'sequential' });
    const members = snapshot.nodes.filter((n) => n.depth === 1);
    expect(members.map((n) => n.name).sort()).toEqual([...children].sort());
    expect(members.map((n) => n.name)).toEqual(bySequence(children));
    for (const n of members) {
      const stat = (await zk.exists(n.path))!;
      const c = owner(stat.ephemeralOwner)!;
      expect(n).toMatchObject({
        sessionId: `0x${stat.ephemeralOwner}`,
        contender: c.id,
        pid: c.pid,
        czxid: stat.czxid,
        ephemeral: true,
      });
      expect(n.sequence).toBe(Number(/(\d+)$/.exec(n.name)![1]));
      const watchedBy = (facts.byPath.get(n.path) ?? []).map((s) => owner(s)?.id ?? `0x${s}`).sort();
      expect(n.watchers, `watchers of ${n.name}`).toEqual(watchedBy);
    }
    expect(snapshot.nodes[0]!.watchers).toEqual([]); // the CLI's own watch on the path is not shown
    expect(members.filter((n) => n.leader).map((n) => n.contender)).toEqual([chain[0]!.id]);
    expect(members.map((n) => n.contender)).toEqual(chain.map((c) => c.id));
    // The predecessor chain, tail first, ends at the leader.
    for (let i = 1; i < chain.length; i++) expect(members[i - 1]!.watchers).toEqual([chain[i]!.id]);
    expect(snapshot.servers.map((s) => s.name)).toEqual(['zk1', 'zk2', 'zk3']);
    expect(snapshot.servers.filter((s) => s.mode === 'leader')).toHaveLength(1);
    expect(snapshot.servers.every((s) => s.childWatches === 0)).toBe(true);
    expect(snapshot.events.length).toBeGreaterThan(0);
    expect(snapshot.problems).toEqual([]);
  });

  it('--once prints the tree, leader marked, within 100 columns, and without a TTY plain inspect does the same', async () => {
    const chain = await settledChain();
    for (const args of [['inspect', '--once'], ['inspect']]) {
      const r = await zklab(args, { lab: paths.root });
      expect(r.exitCode, r.stderr).toBe(0);
      // Without a terminal to ask, the text fits the 100 columns the README promises.
      for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
      const leaderLine = r.stdout.split('\n').find((l) => l.includes('★ LEADER'));
      expect(leaderLine).toContain(`${chain[0]!.id} pid ${chain[0]!.pid}`);
      expect(r.stdout).toContain(
        chain
          .map((c) => c.id)
          .reverse()
          .join(' → '),
      );
    }
  });

  it('the source emits the new leader after a leader kill, within a generous bound', async () => {
    const chain = await settledChain();
    const source = startSource();
    await source.ready();
    expect(leaderNode(source.current())?.contender).toBe(chain[0]!.id);
    const killedAt = Date.now();
    await applyKill(paths, chain[0]!.id, 'SIGKILL');
    const s = await nextSnapshot(
      source,
      (x) => leaderNode(x)?.contender === chain[1]!.id,
      `${chain[1]!.id} to lead`,
      20_000,
    );
    // The old leader's session lingers until it expires (2 s); the snapshot follows the znode's deletion at once.
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(s.nodes.some((n) => n.contender === chain[0]!.id)).toBe(false);
    expect(s.events.some((e) => e.event === 'contender-killed')).toBe(true);
  });

  it('waits for a path that does not exist yet, and shows it when it appears', async () => {
    const source = startSource('/later');
    const first = await source.ready();
    expect(first.exists).toBe(false);
    expect(first.problems).toContain('/later does not exist yet: waiting for it to appear');
    await zk.create('/later', '', 'persistent');
    await zk.create('/later/n_', 'x', 'ephemeral-sequential');
    const s = await nextSnapshot(source, (x) => x.nodes.length === 2, '/later and its child', 5000);
    expect(s.nodes[1]).toMatchObject({
      depth: 1,
      sequence: 0,
      data: 'x',
      sessionId: `0x${zk.sessionId}`,
      contender: null,
    });
  });

  it('keeps working across a server leader change', async () => {
    const source = startSource();
    await source.ready();
    const old = (await quorumLeader(readState(paths)!.servers))!;
    await killServer(paths, old.name, 'SIGKILL');
    await nextSnapshot(
      source,
      (s) => s.servers.find((x) => x.name === old.name)?.mode === 'down' && s.servers.some((x) => x.mode === 'leader'),
      'a new server leader with the old one down',
      40_000,
    );
    // Watches still fire on the observer's (possibly new) connection.
    const victim = listContenders(paths)
      .filter((c) => c.alive && c.path === PATH)
      .at(-1)!;
    await applyKill(paths, victim.id, 'SIGTERM');
    const s = await nextSnapshot(
      source,
      (x) => x.nodes.length > 1 && !x.nodes.some((n) => n.contender === victim.id),
      `${victim.id}'s znode to go`,
      30_000,
    );
    expect(s.problems.filter((p) => p.includes('observer'))).toEqual([]);
    await ensembleUp(paths);
  });

  it('keeps working across a partition of the leading server, shows it, and shows the heal', async () => {
    const { applyIsolate } = await import('../../src/faults/kinds/isolate.js');
    const { applyHeal } = await import('../../src/faults/kinds/heal.js');
    const source = startSource();
    await source.ready();
    const old = (await quorumLeader(readState(paths)!.servers))!.name;
    await applyIsolate(paths, old);
    try {
      const cut = await nextSnapshot(
        source,
        (s) =>
          s.servers.find((x) => x.name === old)?.partitioned === true &&
          s.servers.some((x) => x.name !== old && x.mode === 'leader'),
        `${old} partitioned and another server leading`,
        40_000,
      );
      expect(cut.partitions.some((p) => p.fault === 'partition' && (p.from === old || p.to === old))).toBe(true);
    } catch (e) {
      // Once in a CI run the two servers left did not elect within 40 s: what the servers and the link daemon said.
      throw new Error(`${e instanceof Error ? e.message : e}\n${labLogTails(paths)}`);
    } finally {
      await applyHeal(paths);
    }
    await nextSnapshot(
      source,
      (s) => s.partitions.length === 0 && s.servers.every((x) => !x.partitioned),
      'the heal',
      20_000,
    );
  });

  it('--connect to one follower of a healthy ensemble: the server seen, and no claim that the quorum is lost', async () => {
    const servers = readState(paths)!.servers;
    const leader = (await quorumLeader(servers))!;
    const follower = servers.find((s) => s.name !== leader.name)!;
    // The test before healed a partition of the leading server: its clients may still be settling (a contender
    // reconnecting). The ensemble is healthy once a look finds nothing wrong; a problem that stays fails the test.
    const look = async () => {
      const r = await zklab(['inspect', '--json', '--connect', `127.0.0.1:${follower.clientPort}`], {
        lab: `${paths.root}-none`,
      });
      return { r, snapshot: JSON.parse(r.stdout) as Snapshot };
    };
    let { r, snapshot } = await look();
    for (const until = Date.now() + 10_000; snapshot.problems.length > 0 && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ({ r, snapshot } = await look());
    }
    expect(r.exitCode, r.stderr).toBe(0);
    expect(snapshot.servers.map((s) => s.mode)).toEqual(['follower']);
    expect(snapshot.problems, snapshot.problems.join('; ')).toEqual([]);
  });

  it('an unreachable ensemble: --json names the servers and fails; no lab and no --connect is a usage error', async () => {
    const r = await zklab(['inspect', '--json', '--connect', '127.0.0.1:1,127.0.0.1:2'], { lab: `${paths.root}-none` });
    expect(r.exitCode).toBe(1);
    const snapshot = JSON.parse(r.stdout) as Snapshot;
    expect(snapshot.problems[0]).toMatch(
      /cannot reach ZooKeeper at 127\.0\.0\.1:1,127\.0\.0\.1:2 \(1 connection refused, 2 connection refused\)/,
    );
    expect(snapshot.servers.map((s) => s.mode)).toEqual(['down', 'down']);
    expect(r.stderr).toMatch(/^zklab: cannot reach ZooKeeper/);

    const usage = await zklab(['inspect'], { lab: `${paths.root}-none` });
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toMatch(/^zklab: there is no lab at .* to inspect\n {2}start one with/);
  });
});
