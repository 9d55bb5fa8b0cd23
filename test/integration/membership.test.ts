import { describe, expect, it } from 'vitest';
import { readEventFile } from '../../src/lab/event-log.js';
import { readState, type LabState } from '../../src/lab/state.js';
import { fourLetterWord } from '../../src/zk/four-letter.js';
import { ZkClient } from '../../src/zk/client.js';
import { ensembleAdd } from '../../src/ensemble/membership.js';
import { zklab } from '../helpers/cli.js';
import { tempLab } from '../helpers/paths.js';
import { sharedEnsemble } from '../helpers/shared-ensemble.js';
import { waitFor } from '../helpers/wait.js';
import { leadershipSpans } from '../helpers/beliefs.js';
import { snapshotDir } from '../helpers/lab-snapshot.js';

/**
 * Dynamic reconfiguration and observers on one shared 3-server lab. What each server's configuration is comes from
 * a session of this test's own to that server alone (getConfig); modes from each server's srvr; who believed it led,
 * from the contenders' own event files, read by this test.
 */
const paths = tempLab();
const lab = paths.root;
sharedEnsemble(paths);

async function cli(args: string[], where = lab): Promise<string> {
  const r = await zklab(args, { lab: where });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr}`);
  return r.stdout;
}

const state = (): LabState => readState(paths)!;

async function withServer<T>(port: number, fn: (zk: ZkClient) => Promise<T>): Promise<T> {
  const zk = await ZkClient.connect({
    connect: `127.0.0.1:${port}`,
    sessionTimeoutMs: 4000,
    connectTimeoutMs: 5000,
    quiet: true,
  });
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}

/** Each running server's configuration by its own getConfig: version and member ids with roles. */
async function configs(): Promise<Map<string, { version: string; members: string }>> {
  const out = new Map<string, { version: string; members: string }>();
  for (const s of state().servers) {
    const text = await withServer(s.clientPort, (zk) => zk.getConfig());
    const version = /^version=(\w+)$/m.exec(text)?.[1] ?? '?';
    const members = [...text.matchAll(/^server\.(\d+)=[^:]+:\d+:\d+:(\w+)/gm)]
      .map((m) => `${m[1]}:${m[2]}`)
      .sort()
      .join(',');
    out.set(s.name, { version, members });
  }
  return out;
}

async function expectAgreement(members: string): Promise<void> {
  await waitFor(
    async () => {
      const all = [...(await configs()).values()];
      return all.every((c) => c.version === all[0]!.version && c.members === members);
    },
    `every server to report the membership ${members}`,
    20_000,
  );
}

function srvrMode(port: number): Promise<string> {
  return fourLetterWord(port, 'srvr').then(
    (t) => /^Mode: (\S+)/m.exec(t)?.[1] ?? 'none',
    () => 'down',
  );
}

describe('ensemble add and remove by dynamic reconfiguration', () => {
  it('adds twice and removes twice while 5 contenders run: every server agrees after each step, nobody sees two leaders', async () => {
    await cli(['contenders', 'spawn', '5', '--session-timeout', '6000', '--path', '/m']);
    const ids = state().contenders.map((c) => c.id);
    await expectAgreement('1:participant,2:participant,3:participant');

    expect(await cli(['ensemble', 'add'])).toMatch(/^zk4 joined as participant/);
    await expectAgreement('1:participant,2:participant,3:participant,4:participant');
    expect(await srvrMode(state().servers.find((s) => s.name === 'zk4')!.clientPort)).toMatch(/^(follower|leader)$/);
    expect(await cli(['ensemble', 'add'])).toMatch(/^zk5 joined as participant/);
    await expectAgreement('1:participant,2:participant,3:participant,4:participant,5:participant');

    // The contenders' connect strings follow: each takes up a link to each new server.
    await waitFor(
      () =>
        ids.every((id) =>
          readEventFile(paths.contenderEvents(id)).some(
            (e) => e.event === 'servers' && String(e.connect).split(',').length === 5,
          ),
        ),
      'every contender to use 5 servers',
      10_000,
    );

    // Remove the quorum leader itself, then zk4.
    let zkLeader = '';
    for (const s of state().servers) if ((await srvrMode(s.clientPort)) === 'leader') zkLeader = s.name;
    expect(zkLeader).not.toBe('');
    expect(await cli(['ensemble', 'remove', zkLeader])).toMatch(new RegExp(`^${zkLeader} left and stopped`));
    const afterFirst = ['1', '2', '3', '4', '5'].filter((n) => `zk${n}` !== zkLeader);
    await expectAgreement(afterFirst.map((n) => `${n}:participant`).join(','));
    const second = zkLeader === 'zk4' ? 'zk5' : 'zk4';
    await cli(['ensemble', 'remove', second]);
    const afterSecond = afterFirst.filter((n) => `zk${n}` !== second);
    await expectAgreement(afterSecond.map((n) => `${n}:participant`).join(','));
    expect(state().servers.map((s) => s.id)).toEqual(afterSecond.map(Number));

    await waitFor(
      () =>
        ids.every(
          (id) =>
            readEventFile(paths.contenderEvents(id))
              .filter((e) => e.event === 'servers')
              .at(-1)
              ?.connect.split(',').length === 3,
        ),
      'every contender to use the 3 servers left',
      10_000,
    );
    // Nobody lost its session, and the leadership spans never overlap.
    for (const id of ids)
      expect(readEventFile(paths.contenderEvents(id)).filter((e) => e.event === 'expired')).toEqual([]);
    const spans = leadershipSpans(paths, ids).sort((a, b) => a.start - b.start);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    // ZooKeeper still has all five members' znodes, each owned by a live session.
    const children = await withServer(state().servers[0]!.clientPort, (zk) => zk.getChildren('/m'));
    expect(children).toHaveLength(5);
    await cli(['contenders', 'stop', '--all']);
  }, 180_000);

  it('adds an observer: srvr says observer, it takes client sessions, and --via observers contenders connect to it alone', async () => {
    expect(await cli(['ensemble', 'add', '--observer'])).toMatch(/joined as observer/);
    const observer = state().servers.find((s) => s.role === 'observer')!;
    expect(await srvrMode(observer.clientPort)).toBe('observer');
    await withServer(observer.clientPort, async (zk) => {
      await zk.create('/via-observer', 'x', 'persistent');
      expect((await zk.getData('/via-observer')).data.toString()).toBe('x');
    });
    await cli(['contenders', 'spawn', '2', '--via', 'observers', '--path', '/o']);
    const spawned = state().contenders.filter((c) => c.path === '/o');
    expect(spawned).toHaveLength(2);
    const sessions = await waitFor(() => {
      const found = spawned.map(
        (c) =>
          readEventFile(paths.contenderEvents(c.id)).find((e) => e.event === 'session')?.session as string | undefined,
      );
      return found.every((s) => s !== undefined) ? (found as string[]) : null;
    }, "both contenders' sessions in their event files");
    const cons = await fourLetterWord(observer.clientPort, 'cons');
    for (const s of sessions) expect(cons.toLowerCase()).toContain(`sid=0x${s.replace(/^0x/, '')}`);
    for (const s of state().servers.filter((x) => x.name !== observer.name)) {
      const other = await fourLetterWord(s.clientPort, 'cons');
      for (const sid of sessions) expect(other.toLowerCase(), s.name).not.toContain(`sid=0x${sid.replace(/^0x/, '')}`);
    }
    await cli(['contenders', 'stop', '--all']);
    await cli(['ensemble', 'remove', observer.name]);
    expect(state().servers.some((s) => s.role === 'observer')).toBe(false);
  }, 120_000);

  it('keeps a server whose add was interrupted after ZooKeeper took it in; remove takes it out again', async () => {
    const members = state()
      .servers.map((s) => `${s.id}:${s.role ?? 'participant'}`)
      .join(',');
    const used = new Set(state().servers.map((s) => s.id));
    const id = [1, 2, 3, 4, 5, 6, 7, 8, 9].find((n) => !used.has(n))!;
    // Interrupted as the reconfig goes out: it commits, and the wait for every server to agree is what is cut short.
    const controller = new AbortController();
    await expect(
      ensembleAdd(paths, {
        signal: controller.signal,
        onStep: (step) => step.startsWith('reconfig:') && controller.abort(),
      }),
    ).rejects.toThrow();
    const config = await withServer(state().servers[0]!.clientPort, async (zk) => {
      await zk.sync('/zookeeper/config');
      return zk.getConfig();
    });
    expect(config).toMatch(new RegExp(`^server\\.${id}=`, 'm'));
    const kept = state().servers.find((s) => s.id === id);
    expect(kept, 'the lab still lists the server ZooKeeper took in').toBeDefined();
    await waitFor(
      async () => /^(follower|leader)$/.test(await srvrMode(kept!.clientPort)),
      `${kept!.name} serving as a member`,
      10_000,
    );
    await cli(['ensemble', 'remove', kept!.name]);
    await expectAgreement(members);
  }, 90_000);

  it('refuses bad membership changes with one line and exit 2, changing nothing', async () => {
    const before = { state: state().servers.map((s) => s.name), config: await configs() };
    const refused: [string[], RegExp][] = [
      [['ensemble', 'remove', 'zk9'], /there is no server "zk9" in this lab/],
      [['ensemble', 'add', '--id', '300'], /server id 300 is beyond ZooKeeper's limit of 254 with TTL nodes/],
      [['ensemble', 'add', '--id', '12'], /server id 12 is beyond the 9 servers a lab plans ports for/],
      [['ensemble', 'add', '--id', String(state().servers[0]!.id)], /is already a member of this lab/],
      [['contenders', 'spawn', '1', '--via', 'observers'], /has no observers to connect to/],
      [['ensemble', 'up', '--servers', '3', '--observers', '1'], /already up with 3 servers/],
    ];
    // A server a partition or a delay names stays until what lifts that fault lifts it, which the refusal names.
    const [first, second, third] = state().servers;
    const name = first!.name;
    await cli(['partition', 'isolate', name]);
    const partitioned = await zklab(['ensemble', 'remove', name], { lab });
    expect(partitioned.exitCode, partitioned.stderr).toBe(2);
    expect(partitioned.stderr).toMatch(new RegExp(`${name} is named by a fault of the lab's network: isolate ${name}`));
    expect(partitioned.stderr).toContain(`lift it first: \`zklab heal ${name}\``);
    await cli(['heal', name]);
    await cli(['net', 'delay', name, '50ms']);
    const delayed = await zklab(['ensemble', 'remove', name], { lab });
    expect(delayed.exitCode, delayed.stderr).toBe(2);
    expect(delayed.stderr).toContain(`lift it first: \`zklab net clear ${name}\``);
    expect((await zklab(['heal', name], { lab })).stdout, 'a heal does not lift a delay').toMatch(/^nothing to heal/);
    await cli(['net', 'clear', name]);
    // With one voter dead, removing another would leave the new configuration without a live majority.
    await cli(['kill', 'server', third!.name]);
    refused.push([
      ['ensemble', 'remove', second!.name],
      new RegExp(
        `removing ${second!.name} would leave the voters .* without a live majority \\(${third!.name} is down\\)`,
      ),
    ]);
    for (const [args, message] of refused) {
      const r = await zklab(args, { lab });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    expect(state().servers.map((s) => s.name)).toEqual(before.state);
    await cli(['ensemble', 'up']);
    const after = await configs();
    expect([...after.values()].map((c) => c.version)).toEqual([...before.config.values()].map((c) => c.version));
  }, 120_000);
});

describe('ensemble up --observers', () => {
  it('refuses observers beside a single voter, creating nothing', async () => {
    const other = tempLab();
    const r = await zklab(['ensemble', 'up', '--servers', '1', '--observers', '1'], { lab: other.root });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--observers 1 needs at least 2 voting servers, not 1/);
    expect(readState(other)).toBeUndefined();
  });

  it('refuses to give a stopped lab that holds data another shape, changing nothing; down --purge makes room', async () => {
    const other = tempLab();
    const run = (args: string[]) => cli(args, other.root);
    const srvrModes = async (): Promise<string[]> =>
      Promise.all(
        readState(other)!.servers.map(
          async (s) => /^Mode: (\w+)/m.exec(await fourLetterWord(s.clientPort, 'srvr'))?.[1] ?? 'none',
        ),
      );
    try {
      await run(['ensemble', 'up', '--servers', '2', '--observers', '1']);
      await withServer(readState(other)!.servers[0]!.clientPort, (zk) => zk.create('/kept', 'x', 'persistent'));
      await run(['contenders', 'spawn', '1']);
      await run(['ensemble', 'down']);
      const before = snapshotDir(other.root);
      for (const args of [
        ['--servers', '3'],
        ['--observers', '0'],
        ['--tick', '300'],
      ]) {
        const refused = await zklab(['ensemble', 'up', ...args], { lab: other.root });
        expect(refused.exitCode, args.join(' ')).toBe(2);
        expect(refused.stderr).toMatch(/holds the data of a 2-server ensemble and 1 observer/);
        expect(refused.stderr).toMatch(/ensemble down --purge.*ensemble add/s);
        expect(snapshotDir(other.root)).toEqual(before);
      }
      // As it was, the data is there.
      const status = await run(['ensemble', 'up']);
      expect((await srvrModes()).sort()).toEqual(['follower', 'leader', 'observer']);
      // The quorum counts voters; the observer is said apart.
      expect(status).toMatch(
        /^quorum: 2\/2 voters serving, zk[12] leads; observers 1\/1 serving \(they do not vote\)$/m,
      );
      const kept = await withServer(readState(other)!.servers[0]!.clientPort, (zk) => zk.exists('/kept'));
      expect(kept).not.toBeNull();
      // Purged, another shape starts afresh, without the old contenders' records.
      await run(['ensemble', 'down', '--purge']);
      await run(['ensemble', 'up', '--servers', '1']);
      expect(await srvrModes()).toEqual(['standalone']);
      expect(await run(['ensemble', 'config'])).toMatch(
        /^zk1 runs standalone: a one-server lab has no dynamic configuration/,
      );
      expect(readState(other)!.contenders).toEqual([]);
      expect(await withServer(readState(other)!.servers[0]!.clientPort, (zk) => zk.exists('/kept'))).toBeNull();
    } finally {
      await zklab(['ensemble', 'down', '--purge'], { lab: other.root });
    }
  }, 90_000);
});
