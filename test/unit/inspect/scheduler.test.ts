import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/inspect/build-snapshot.js';
import { planPanes } from '../../../src/inspect/layout.js';
import { isSchedulerRoot, summarizeScheduler } from '../../../src/inspect/scheduler-facts.js';
import { formatSpec, schedulerHeadline, schedulerLines } from '../../../src/inspect/scheduler-lines.js';
import { statusOf, ttlFromStatus } from '../../../src/inspect/znode-facts.js';
import { scheduler } from './fixtures.js';
import { NOW, contender, input, znode } from './raw-inputs.js';

const R = '/scheduler';

/** A status as a worker writes it (hand-written here, so the test does not lean on the scheduler's encoder). */
const status = (
  job: string,
  f: { ok?: boolean; ttlMs?: number; worker?: string; result?: number; error?: string } = {},
): string =>
  JSON.stringify({
    job,
    worker: f.worker ?? 'c1-1',
    contender: (f.worker ?? 'c1-1').split('-')[0],
    attempt: 1,
    ok: f.ok ?? true,
    ...(f.result === undefined ? {} : { result: f.result }),
    ...(f.error === undefined ? {} : { error: f.error }),
    startedAt: NOW - 9000,
    endedAt: NOW - 8000,
    ttlMs: f.ttlMs ?? 20_000,
  });
const job = (attempt: number): string =>
  JSON.stringify({ spec: { kind: 'sleep', ms: 300 }, submittedAt: NOW - 7000, attempt });

describe('TTL from status data', () => {
  it('counts a status TTL down from the last change (ctime when no mtime is known)', () => {
    const z = znode(`${R}/status/job-0000000001`, {
      data: status('job-0000000001', { ttlMs: 20_000 }),
      ctime: NOW - 9000,
      mtime: NOW - 5000,
    });
    expect(ttlFromStatus(z, statusOf(z), NOW)).toEqual({ ms: 20_000, remainingMs: 15_000, source: 'status-data' });
    const noMtime = znode(`${R}/status/job-0000000001`, {
      data: status('job-0000000001', { ttlMs: 3000 }),
      ctime: NOW - 5000,
    });
    expect(ttlFromStatus(noMtime, statusOf(noMtime), NOW)?.remainingMs).toBe(-2000);
  });

  it('knows no TTL without a worker status of that very job in a status folder', () => {
    const cases = [
      znode(`${R}/status/job-0000000001`), // no data: persistent, TTL or container, nobody can say
      znode(`${R}/status/job-0000000001`, { data: '{"ttlMs":5000}' }), // not a worker's status
      znode(`${R}/status/job-0000000001`, { data: status('job-0000000002') }), // another job's status
      znode(`${R}/jobs/job-0000000001`, { data: status('job-0000000001') }), // not in status/
    ];
    for (const z of cases) expect(ttlFromStatus(z, statusOf(z), NOW), z.path).toBeNull();
  });

  it('takes nothing from ephemeralOwner: a TTL node as a real server shows it (owner 0) gets its TTL from data only', () => {
    const s = buildSnapshot(
      input({
        path: `${R}/status`,
        znodes: [
          znode(`${R}/status`),
          znode(`${R}/status/job-0000000001`, { data: status('job-0000000001', { ttlMs: 20_000 }), mtime: NOW - 1000 }),
          znode(`${R}/status/job-0000000002`, { mtime: NOW - 1000 }),
          znode(`${R}/status/job-0000000003`, { owner: 'ff00000000004e20', mtime: NOW - 1000 }),
        ],
      }),
    );
    const by = (name: string) => s.nodes.find((n) => n.name === name)!;
    expect(by('job-0000000001')).toMatchObject({
      ttl: { ms: 20_000, remainingMs: 19_000, source: 'status-data' },
      sessionId: null,
      ephemeral: false,
    });
    expect(by('job-0000000002')).toMatchObject({ ttl: null, sessionId: null, state: 'unknown' });
    expect(by('job-0000000003')).toMatchObject({ ttl: null, sessionId: '0xff00000000004e20' });
    // Below a scheduler's root, but not at it: TTLs yes, the scheduler's view no.
    expect(s.scheduler).toBeNull();
  });
});

describe('a scheduler root', () => {
  const raw = () => [
    znode(R),
    znode(`${R}/election`),
    znode(`${R}/election/g1-n_0000000001`, { owner: 'a1' }),
    znode(`${R}/election/g2-n_0000000002`, { owner: 'a2' }),
    znode(`${R}/election/g3-n_0000000003`, { owner: 'a3' }),
    znode(`${R}/workers`),
    znode(`${R}/workers/c1-1`, { owner: 'a1', data: '{"contender":"c1","pid":1001}' }),
    znode(`${R}/workers/c2-1`, { owner: 'a2' }),
    znode(`${R}/workers/c3-1`, { owner: 'a3' }),
    znode(`${R}/jobs`),
    ...Array.from({ length: 7 }, (_, i) => znode(`${R}/jobs/job-00000000${20 + i}`, { data: job(1) })),
    znode(`${R}/assignments`),
    znode(`${R}/assignments/c1-1`),
    znode(`${R}/assignments/c1-1/job-0000000012`, { data: job(2) }),
    znode(`${R}/assignments/c1-1/job-0000000015`, { data: job(1) }),
    znode(`${R}/assignments/c9-1`),
    znode(`${R}/assignments/c9-1/job-0000000013`, { data: job(1) }),
    znode(`${R}/status`),
    znode(`${R}/status/job-0000000010`, {
      data: status('job-0000000010', { result: 5, ttlMs: 20_000 }),
      mtime: NOW - 8000,
    }),
    znode(`${R}/status/job-0000000011`, {
      data: status('job-0000000011', { ok: false, error: 'boom', ttlMs: 20_000 }),
      mtime: NOW - 3000,
    }),
    znode(`${R}/status/job-0000000014`),
    znode(`${R}/rotation`, { data: '16' }),
  ];
  const contenders = [
    contender('c1', 'a1'),
    contender('c2', 'a2', { alive: false }),
    contender('c3', 'a3', { paused: true }),
  ];

  it('is told by its election/, workers/ and jobs/, or by the lab', () => {
    expect(isSchedulerRoot(R, ['election', 'workers', 'jobs', 'status'], [])).toBe(true);
    expect(isSchedulerRoot(R, ['election', 'nodes', 'leader'], [])).toBe(false);
    expect(isSchedulerRoot(R, [], [R])).toBe(true);
    expect(isSchedulerRoot(R, null, [R])).toBe(false);
  });

  it('takes the leader from its election/, and keeps leader and follower for the election', () => {
    const s = buildSnapshot(input({ path: R, znodes: raw(), contenders }));
    expect(s.layout).toBe('sequential');
    expect(s.nodes.filter((n) => n.leader).map((n) => n.path)).toEqual([`${R}/election/g1-n_0000000001`]);
    expect(s.nodes.find((n) => n.name === 'g1-n_0000000001')?.state).toBe('leader');
    const worker = (w: string) => s.nodes.find((n) => n.path === `${R}/workers/${w}`)!;
    expect(worker('c1-1')).toMatchObject({
      state: 'alive',
      contender: 'c1',
      scheduler: { role: 'worker', worker: 'c1-1', contender: 'c1' },
    });
    expect(worker('c2-1').state).toBe('expired');
    expect(worker('c3-1').state).toBe('paused');
    expect(s.problems).toEqual([]);
  });

  it('gives every znode its part, and sums the scheduler up', () => {
    const s = buildSnapshot(input({ path: R, znodes: raw(), contenders }));
    const part = (p: string) => s.nodes.find((n) => n.path === `${R}${p}`)!.scheduler;
    expect(part('')).toEqual({ role: 'root' });
    expect(part('/rotation')).toEqual({ role: 'rotation' });
    expect(part('/election/g2-n_0000000002')).toBeNull();
    expect(part('/jobs/job-0000000020')).toEqual({
      role: 'queued',
      job: 'job-0000000020',
      attempt: 1,
      spec: { kind: 'sleep', ms: 300 },
    });
    expect(part('/assignments/c9-1')).toEqual({ role: 'worker-queue', worker: 'c9-1', registered: false, assigned: 1 });
    expect(part('/assignments/c1-1/job-0000000012')).toMatchObject({ role: 'assignment', worker: 'c1-1', attempt: 2 });
    expect(part('/status/job-0000000011')).toEqual({
      role: 'done',
      job: 'job-0000000011',
      worker: 'c1-1',
      attempt: 1,
      ok: false,
      result: null,
      error: 'boom',
    });
    expect(part('/status/job-0000000014')).toMatchObject({ role: 'done', ok: null, worker: null });

    expect(s.scheduler).toEqual({
      root: R,
      leader: 'c1',
      workers: [
        {
          worker: 'c1-1',
          contender: 'c1',
          registered: true,
          alive: true,
          state: 'alive',
          assignments: [
            { job: 'job-0000000012', attempt: 2 },
            { job: 'job-0000000015', attempt: 1 },
          ],
        },
        { worker: 'c2-1', contender: 'c2', registered: true, alive: false, state: 'expired', assignments: [] },
        { worker: 'c3-1', contender: 'c3', registered: true, alive: true, state: 'paused', assignments: [] },
        {
          worker: 'c9-1',
          contender: 'c9',
          registered: false,
          alive: false,
          state: null,
          assignments: [{ job: 'job-0000000013', attempt: 1 }],
        },
      ],
      queued: 7,
      nextQueued: ['job-0000000020', 'job-0000000021', 'job-0000000022', 'job-0000000023', 'job-0000000024'],
      assigned: 3,
      done: 3,
      ok: 1,
      failed: 1,
      unreadable: 1,
      nextExpiryMs: 12_000,
    });
  });

  it('is shown as a scheduler when the lab says so, before its folders exist', () => {
    const s = buildSnapshot(input({ path: R, znodes: [znode(R)], schedulerRoots: [R] }));
    expect(s.scheduler).toMatchObject({ root: R, leader: null, workers: [], queued: 0, done: 0, nextExpiryMs: null });
    expect(s.layout).toBe('empty');
  });

  it('reports two election znodes of one session under its election/', () => {
    const znodes = [...raw(), znode(`${R}/election/g1-n_0000000004`, { owner: 'a1' })];
    expect(buildSnapshot(input({ path: R, znodes, contenders })).problems).toEqual([
      `c1 owns 2 znodes under ${R}/election`,
    ]);
  });

  it('leaves a plain election as it was', () => {
    const s = buildSnapshot(
      input({
        znodes: [znode('/election'), znode('/election/workers'), znode('/election/n_0000000001', { owner: 'a1' })],
        contenders: [contender('c1', 'a1')],
      }),
    );
    expect(s.scheduler).toBeNull();
    expect(s.nodes.every((n) => n.scheduler === null)).toBe(true);
    expect(s.nodes.find((n) => n.leader)?.state).toBe('leader');
  });
});

describe('the scheduler in words', () => {
  it('names job specs', () => {
    expect([
      formatSpec({ kind: 'sleep', ms: 1500 }),
      formatSpec({ kind: 'sum', args: [2, 3] }),
      formatSpec({ kind: 'fail' }),
      formatSpec({ kind: 'fail', message: 'x' }),
    ]).toEqual(['sleep 1.5s', 'sum 2+3', 'fail', 'fail: x']);
  });

  it('says counts, outcomes, leader and the next expiry in one line', () => {
    const s = scheduler().scheduler!;
    expect(schedulerHeadline(s)).toBe(
      '2 workers (+1 gone) · 2 queued · 2 assigned · 3 done (1 ok, 1 failed, 1 unreadable) · leader c1 · next status ttl due',
    );
    expect(
      schedulerHeadline({
        ...s,
        workers: [],
        done: 0,
        ok: 0,
        failed: 0,
        unreadable: 0,
        leader: null,
        nextExpiryMs: null,
      }),
    ).toBe('0 workers · 2 queued · 2 assigned · 0 done · no leader');
  });

  it('lists the queue head and each worker with its assignments and attempts', () => {
    const text = schedulerLines(scheduler().scheduler!).map((l) => l.text);
    expect(text[1]).toBe('queue job-0000000014 job-0000000015');
    expect(text.slice(2)).toEqual([
      'c1-1   c1   alive    1 assigned: job-0000000012 (attempt 2)',
      'c3-1   c3   alive    idle',
      'c2-1   c2   gone     1 assigned: job-0000000013 (attempt 1)',
    ]);
    const long = summarizeScheduler(R, []);
    expect(
      schedulerLines({ ...long, queued: 9, nextQueued: ['job-1', 'job-2'] })
        .map((l) => l.text)
        .slice(1),
    ).toEqual(['queue job-1 job-2 … +7', 'no workers']);
  });

  it('gets a pane of its own, which gives way to the tree last', () => {
    const demand = { treeRows: 40, problems: 0, watchLines: 1, ensembleLines: 3, events: 20 };
    expect(planPanes(120, 40, demand).scheduler).toBe(0);
    expect(planPanes(120, 40, { ...demand, schedulerLines: 5 })).toMatchObject({ scheduler: 5, watch: 1, ensemble: 3 });
    expect(planPanes(120, 16, { ...demand, schedulerLines: 5 })).toMatchObject({
      scheduler: 5,
      watch: 0,
      ensemble: 0,
      events: 0,
      tree: 8,
    });
    expect(planPanes(120, 40, { ...demand, schedulerLines: 30 }).scheduler).toBe(6);
  });
});
