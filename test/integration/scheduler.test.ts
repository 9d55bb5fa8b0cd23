import { describe, expect, it } from 'vitest';
import { readEventFile } from '../../src/lab/event-log.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { MultiClient } from '../../src/zk/multi.js';
import { fourLetterWord } from '../../src/zk/four-letter.js';
import { execa } from 'execa';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { zkLeaderContender } from '../helpers/contenders.js';
import { snapshotDir } from '../helpers/lab-snapshot.js';
import { tempLab } from '../helpers/paths.js';
import { sharedLab } from '../helpers/shared-ensemble.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The task scheduler workload on one shared 3-server ensemble, each test on a scheduler root of its own. What
 * happened to a job is read from ZooKeeper (status znodes and their data, the queue, the assignments) and from the
 * workers' raw event files, never from zklab's own jobs service, which is what is under test.
 */
const paths = tempLab();
const lab = paths.root;
const { zk, cli } = sharedLab(paths);

const children = async (p: string): Promise<string[]> => ((await zk().exists(p)) ? zk().getChildren(p) : []);

/** status/<job> data as the worker wrote it (JSON), by job. */
async function statuses(
  root: string,
): Promise<Map<string, { worker: string; ok: boolean; attempt: number; ttlMs: number }>> {
  const out = new Map<string, { worker: string; ok: boolean; attempt: number; ttlMs: number }>();
  for (const job of await children(`${root}/status`)) {
    const d = await zk()
      .getData(`${root}/status/${job}`)
      .catch(() => null);
    if (d)
      out.set(job, JSON.parse(d.data.toString()) as { worker: string; ok: boolean; attempt: number; ttlMs: number });
  }
  return out;
}

/** Completed runs per job of the scheduler at `root`, counted from its workers' own event files. */
function runsPerJob(root: string): Map<string, number> {
  const runs = new Map<string, number>();
  for (const c of readState(paths)!.contenders.filter((r) => r.scheduler?.root === root)) {
    for (const e of readEventFile(paths.contenderEvents(c.id)))
      if (e.event === 'job-finished') runs.set(e.job, (runs.get(e.job) ?? 0) + 1);
  }
  return runs;
}

const contenderOf = (worker: string): string => /^(c\d+)-\d+$/.exec(worker)![1]!;

/** Starts `n` workers of the scheduler at `root`; their contender ids. */
async function workers(n: number, root: string, ...extra: string[]): Promise<string[]> {
  const out = JSON.parse(
    await cli(['contenders', 'spawn', String(n), '--workload', 'scheduler', '--path', root, '--json', ...extra]),
  ) as { contenders: { id: string }[] };
  return out.contenders.map((c) => c.id);
}

describe('the scheduler workload', () => {
  it('queues jobs with no worker running, then 50 jobs over 3 workers all complete, each once, and the queue empties', async () => {
    const submit = await zklab(['jobs', 'submit', '5', '--ms', '50ms', '--path', '/s1'], { lab });
    expect(submit.exitCode, submit.stderr).toBe(0);
    expect(submit.stderr).toMatch(/no worker is running, so they wait/);
    const waiting = submit.stdout.trim().split('\n');
    expect(waiting).toHaveLength(5);
    expect((await children('/s1/jobs')).sort()).toEqual([...waiting].sort());

    // A spawn returns once its workers are registered: jobs submitted now can go to each of them.
    const ids = await workers(3, '/s1');
    expect((await children('/s1/workers')).length).toBe(3);
    const jobs = [
      ...waiting,
      ...(await cli(['jobs', 'submit', '45', '--ms', '50ms', '--path', '/s1'])).trim().split('\n'),
    ];
    expect(jobs).toHaveLength(50);
    const done = await waitFor(
      async () => ((await statuses('/s1')).size === 50 ? statuses('/s1') : null),
      '50 status znodes',
      60_000,
    );
    expect([...done.keys()].sort()).toEqual([...jobs].sort());
    expect([...done.values()].every((s) => s.ok && s.attempt === 1 && s.ttlMs === 30_000)).toBe(true);
    expect(new Set([...done.values()].map((s) => contenderOf(s.worker)))).toEqual(new Set(ids));
    await waitFor(async () => {
      const left = await Promise.all((await children('/s1/assignments')).map((w) => children(`/s1/assignments/${w}`)));
      return left.every((l) => l.length === 0) || null;
    }, 'every assignment deleted after its status');
    expect(await children('/s1/jobs')).toEqual([]);
    const runs = runsPerJob('/s1');
    expect(
      jobs.every((j) => runs.get(j) === 1),
      JSON.stringify([...runs]),
    ).toBe(true);

    const status = JSON.parse(await cli(['jobs', 'status', '--path', '/s1', '--json'])) as {
      done: { job: string; ttlMs: number; expiresInMs: number }[];
      pending: unknown[];
    };
    expect(status.pending).toEqual([]);
    expect(status.done).toHaveLength(50);
    expect(status.done.every((d) => d.ttlMs === 30_000 && d.expiresInMs > 0 && d.expiresInMs <= 30_000)).toBe(true);
  }, 120_000);

  it('writes status nodes that are real TTL znodes: stat shows ephemeralOwner 0, yet they vanish while a persistent znode made with them stays', async () => {
    await workers(2, '/s2', '--status-ttl', '2s');
    await cli(['jobs', 'submit', '3', '--kind', 'sum', '--args', '2,3', '--path', '/s2']);
    const done = await waitFor(
      async () => ((await statuses('/s2')).size === 3 ? statuses('/s2') : null),
      'three status znodes',
      30_000,
    );
    await zk().create('/s2/status-neighbour', 'persistent', 'persistent');
    for (const job of done.keys()) expect((await zk().exists(`/s2/status/${job}`))!.ephemeralOwner).toBe('0');
    expect([...done.values()].every((s) => s.ok && s.ttlMs === 2000)).toBe(true);
    const data = JSON.parse((await zk().getData(`/s2/status/${[...done.keys()][0]}`)).data.toString()) as {
      result: number;
    };
    expect(data.result).toBe(5);
    // TTL 2 s, the lab's reaper every 1 s: gone within a few seconds.
    await waitFor(
      async () => ((await children('/s2/status')).length === 0 ? true : null),
      'the status znodes reaped',
      15_000,
      100,
    );
    expect(await zk().exists('/s2/status-neighbour')).not.toBeNull();
  }, 60_000);

  it('spreads 30 round-robin jobs 10/10/10 over 3 workers across a leader change (the new leader continues the rotation)', async () => {
    const ids = await workers(3, '/s3', '--strategy', 'round-robin', '--status-ttl', '5m');
    await cli(['jobs', 'submit', '16', '--ms', '20ms', '--path', '/s3']);
    await waitFor(async () => ((await statuses('/s3')).size === 16 ? true : null), '16 status znodes', 30_000);
    const leader = await zkLeaderContender(paths, '/s3/election');
    expect(leader).not.toBeNull();
    const before = (await children('/s3/workers')).sort();
    expect(before).toHaveLength(3);

    // The leader loses its session; it comes back as a new worker and the next in line leads.
    await cli(['partition', 'isolate', leader!]);
    await waitFor(
      async () => {
        const now = await zkLeaderContender(paths, '/s3/election');
        return now !== null && now !== leader ? now : null;
      },
      'a new leader by ZooKeeper',
      20_000,
    );
    await cli(['heal']);
    await waitFor(
      async () => {
        const w = await children('/s3/workers');
        return w.length === 3 && w.some((n) => n.startsWith(`${leader}-`) && !before.includes(n)) ? w : null;
      },
      `${leader} registered again under a new name`,
      30_000,
    );

    await cli(['jobs', 'submit', '14', '--ms', '20ms', '--path', '/s3']);
    const done = await waitFor(
      async () => ((await statuses('/s3')).size === 30 ? statuses('/s3') : null),
      '30 status znodes',
      30_000,
    );
    const per = new Map<string, number>();
    for (const s of done.values()) per.set(contenderOf(s.worker), (per.get(contenderOf(s.worker)) ?? 0) + 1);
    expect(Object.fromEntries(per)).toEqual(Object.fromEntries(ids.map((id) => [id, 10])));
  }, 120_000);

  it('a leader crashed by a failpoint right after an assignment loses no job and runs none twice', async () => {
    await workers(3, '/s4');
    const leader = await zkLeaderContender(paths, '/s4/election');
    expect(await cli(['failpoint', 'set', 'leader', 'after-assign', '--action', 'crash'])).toMatch(
      new RegExp(`${leader} will crash at after-assign`),
    );
    const jobs = (await cli(['jobs', 'submit', '6', '--ms', '100ms', '--path', '/s4'])).trim().split('\n');
    const done = await waitFor(
      async () => ((await statuses('/s4')).size === 6 ? statuses('/s4') : null),
      'six status znodes',
      40_000,
    );
    expect([...done.keys()].sort()).toEqual(jobs.sort());
    const pid = readState(paths)!.contenders.find((c) => c.id === leader)!.pid!;
    expect(() => process.kill(pid, 0)).toThrow();
    expect(
      readEventFile(paths.contenderEvents(leader!)).some((e) => e.event === 'failpoint' && e.at === 'after-assign'),
    ).toBe(true);
    const runs = runsPerJob('/s4');
    expect(jobs.map((j) => runs.get(j))).toEqual(jobs.map(() => 1));
    expect(await zkLeaderContender(paths, '/s4/election')).not.toBe(leader);
  }, 90_000);

  it('a worker whose status/ folder was deleted makes it again instead of leaving the job assigned', async () => {
    await workers(1, '/s7');
    await zk().delete('/s7/status');
    const [job] = (await cli(['jobs', 'submit', '1', '--ms', '10ms', '--path', '/s7'])).trim().split('\n');
    await waitFor(async () => ((await statuses('/s7')).has(job!) ? true : null), "the job's status", 20_000);
    const assigned = async () =>
      (await Promise.all((await children('/s7/assignments')).map((w) => children(`/s7/assignments/${w}`)))).flat();
    await waitFor(async () => ((await assigned()).length === 0 ? true : null), 'the assignment deleted', 20_000);
  }, 40_000);

  it('a worker hung by a failpoint before its status keeps its job assigned while its session lives', async () => {
    const ids = await workers(2, '/s5');
    const leader = await zkLeaderContender(paths, '/s5/election');
    const follower = ids.find((id) => id !== leader)!;
    await cli(['failpoint', 'set', follower, 'before-status', '--action', 'hang']);
    await cli(['jobs', 'submit', '4', '--ms', '10ms', '--path', '/s5']);
    await waitFor(async () => ((await statuses('/s5')).size === 3 ? true : null), 'the other three jobs done', 30_000);
    const stuck = (await children('/s5/assignments')).filter((w) => w.startsWith(`${follower}-`));
    expect(stuck).toHaveLength(1);
    expect(await children(`/s5/assignments/${stuck[0]}`)).toHaveLength(1);
    expect(
      readEventFile(paths.contenderEvents(follower)).some(
        (e) => e.event === 'failpoint' && e.at === 'before-status' && e.action === 'hang',
      ),
    ).toBe(true);
    expect(await children('/s5/workers')).toContain(stuck[0]);
  }, 60_000);
});

describe('multi, spoken by zklab itself (src/zk/multi.ts), on real servers', () => {
  it('applies every op or none, names the op that failed, and ends its session on close', async () => {
    const state = readState(paths)!;
    const m = new MultiClient({ connect: directConnectString(state), sessionTimeoutMs: 4000, connectTimeoutMs: 5000 });
    await zk().mkdirp('/m');
    await zk().create('/m/job', 'work', 'persistent');
    let session: string | null = null;
    try {
      await m.commit([
        { op: 'check', path: '/m/job' },
        { op: 'create', path: '/m/a', data: 'work' },
        { op: 'delete', path: '/m/job' },
      ]);
      session = m.sessionId;
      expect(
        (await Promise.all(readState(paths)!.servers.map((sv) => fourLetterWord(sv.clientPort, 'cons')))).join('\n'),
      ).toContain(`sid=0x${session}`);
      expect(await zk().exists('/m/job')).toBeNull();
      expect((await zk().getData('/m/a')).data.toString()).toBe('work');

      await expect(
        m.commit([
          { op: 'create', path: '/m/b', data: '' },
          { op: 'check', path: '/m/nothing' },
        ]),
      ).rejects.toMatchObject({ code: 'NONODE', index: 1 });
      expect(await zk().exists('/m/b')).toBeNull();
      await expect(
        m.commit([
          { op: 'delete', path: '/m/a' },
          { op: 'create', path: '/m/a', data: '' },
          { op: 'create', path: '/m/a', data: '' },
        ]),
      ).rejects.toMatchObject({ code: 'NODEEXISTS', index: 2 });
      expect((await zk().getData('/m/a')).data.toString()).toBe('work');
      await m.commit([{ op: 'set', path: '/m/a', data: 'done', version: 0 }]);
      await expect(m.commit([{ op: 'set', path: '/m/a', data: 'again', version: 0 }])).rejects.toMatchObject({
        code: 'BADVERSION',
        index: 0,
      });
      expect((await zk().getData('/m/a')).data.toString()).toBe('done');
      // Reads on the same session: the data and the version a compare-and-set needs.
      expect(await m.getData('/m/a')).toEqual({ data: Buffer.from('done'), version: 1 });
      await expect(m.getData('/m/nothing')).rejects.toMatchObject({ code: 'NONODE' });
    } finally {
      m.close();
    }
    expect(session).toMatch(/^[0-9a-f]+$/);
    const cons = async () =>
      (await Promise.all(state.servers.map((s) => fourLetterWord(s.clientPort, 'cons').catch(() => '')))).join('\n');
    await waitFor(
      async () => (!(await cons()).includes(`sid=0x${session}`) ? true : null),
      'the multi session gone from every server',
      10_000,
      100,
    );
  }, 30_000);
});

describe('jobs status --watch', () => {
  it('shows each job move from the queue to done as it happens, and leaves at q', async () => {
    // Before any worker: the job waits in the queue; the watch shows it pending.
    await cli(['jobs', 'submit', '1', '--kind', 'sum', '--args', '20,22', '--path', '/s6']);
    const watch = execa(process.execPath, [ZKLAB_BIN, 'jobs', 'status', '--watch', '--path', '/s6', '--lab', lab], {
      reject: false,
      env: { FORCE_COLOR: '0' },
    });
    let out = '';
    watch.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await waitFor(
        () => /\/s6: 1 pending, 0 assigned, 0 done/.test(out) || null,
        'the watch to show the job pending',
        20_000,
      );
      await workers(1, '/s6');
      await waitFor(
        () => /\/s6: 0 pending, 0 assigned, 1 done/.test(out) || null,
        'the watch to show the job done',
        20_000,
      );
      expect(out).toMatch(/ok = 42/);
      watch.stdin!.write('q');
      const r = await watch;
      expect(r.exitCode, r.stderr).toBe(0);
    } finally {
      watch.kill('SIGINT');
    }
  }, 60_000);
});

describe('scheduler bad input: one line, exit 2, nothing changed', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'an unknown strategy',
      ['contenders', 'spawn', '2', '--workload', 'scheduler', '--strategy', 'fastest'],
      /--strategy: "fastest" is unknown/,
    ],
    ['an unknown workload', ['contenders', 'spawn', '2', '--workload', 'lottery'], /--workload: "lottery" is unknown/],
    [
      'a zero status TTL',
      ['contenders', 'spawn', '2', '--workload', 'scheduler', '--status-ttl', '0'],
      /--status-ttl: "0" is not above 0/,
    ],
    [
      'a TTL that is not a duration',
      ['contenders', 'spawn', '2', '--workload', 'scheduler', '--status-ttl', 'soon'],
      /--status-ttl: "soon" is not a duration/,
    ],
    [
      '--strategy without the workload',
      ['contenders', 'spawn', '2', '--strategy', 'random'],
      /--strategy: only applies to --workload scheduler/,
    ],
    [
      'an election option with the workload',
      ['contenders', 'spawn', '2', '--workload', 'scheduler', '--priority', '1,2'],
      /--priority: only applies to --recipe priority/,
    ],
    ['an unknown job kind', ['jobs', 'submit', '3', '--kind', 'shell'], /unknown job kind "shell"/],
    ['a zero job count', ['jobs', 'submit', '0'], /the job count must be a whole number from 1/],
    ['a negative job count', ['jobs', 'submit', '-2'], /the job count must be a whole number from 1/],
    ['a negative job duration', ['jobs', 'submit', '1', '--ms=-1s'], /--ms: "-1s" is negative/],
    [
      'a sum without numbers',
      ['jobs', 'submit', '1', '--kind', 'sum', '--args', 'a,b'],
      /--args "a,b" is not a list of numbers/,
    ],
    [
      'jobs status where no scheduler is',
      ['jobs', 'status', '--path', '/nowhere'],
      /there is no scheduler at \/nowhere/,
    ],
    ['an unknown failpoint', ['failpoint', 'set', 'c1', 'somewhere'], /has no failpoint "somewhere"|c1 is not running/],
    [
      'an unknown failpoint action',
      ['failpoint', 'set', 'c1', 'after-assign', '--action', 'explode'],
      /unknown failpoint action "explode"/,
    ],
    [
      'a failpoint in a server',
      ['failpoint', 'set', 'zk1', 'after-assign'],
      /zk1 is a server; failpoints live in contenders/,
    ],
    ['clearing a failpoint nobody has', ['failpoint', 'clear', '../lab'], /no failpoint is armed in "\.\.\/lab"/],
  ];

  it.each(cases)(
    '%s',
    async (_what, args, message) => {
      const before = snapshotDir(lab);
      const queued = (await children('/scheduler/jobs')).length;
      const r = await zklab(args, { lab });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(snapshotDir(lab)).toEqual(before);
      expect((await children('/scheduler/jobs')).length).toBe(queued);
    },
    30_000,
  );
});
