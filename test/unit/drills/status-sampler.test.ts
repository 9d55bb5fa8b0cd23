import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StatusSampler } from '../../../src/drills/run/status-sampler.js';
import { readLabEvents } from '../../../src/lab/event-log.js';
import { LabPaths } from '../../../src/lab/paths.js';
import { emptyState, type LabState } from '../../../src/lab/state.js';
import { encodeStatusData } from '../../../src/recipes/scheduler-layout.js';
import { FakeEnsemble } from '../recipes/fake-zk.js';

const dir = mkdtempSync(join(tmpdir(), 'zklab-status-sampler-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const worker = (id: string) => ({
  id,
  recipe: 'predecessor',
  path: '/scheduler/election',
  sessionTimeoutMs: 2000,
  startedAt: 0,
  scheduler: { root: '/scheduler', strategy: 'round-robin', statusTtlMs: 3000 },
});
const status = (job: string) =>
  encodeStatusData({
    job,
    worker: 'c1-1',
    contender: 'c1',
    attempt: 1,
    ok: true,
    startedAt: 1,
    endedAt: 2,
    ttlMs: 3000,
  });

describe('StatusSampler', () => {
  it('records each status node once as it comes, with its ctime and the TTL its data says, and once as it goes', async () => {
    const paths = new LabPaths(join(dir, 'lab'));
    const zk = await new FakeEnsemble().connect();
    await zk.mkdirp('/scheduler/status');
    await zk.create('/scheduler/status/job-1', status('job-1'), 'persistent');
    await zk.create('/scheduler/status/job-2', 'not a status', 'persistent');
    const state: LabState = { ...emptyState(), contenders: [worker('c1'), worker('c2')] };
    const sampler = new StatusSampler(paths);
    await sampler.sample(zk, state);
    await sampler.sample(zk, state);
    const ctime = (await zk.getData('/scheduler/status/job-1')).stat.ctime;
    await zk.delete('/scheduler/status/job-1');
    await sampler.sample(zk, state);
    const seen = readLabEvents(paths.labEventsFile).map(({ t: _, ...e }) => e);
    expect(seen).toEqual([
      { source: 'lab', event: 'status-seen', path: '/scheduler', job: 'job-1', ctime, ttlMs: 3000 },
      { source: 'lab', event: 'status-seen', path: '/scheduler', job: 'job-2', ctime: expect.any(Number), ttlMs: null },
      { source: 'lab', event: 'status-gone', path: '/scheduler', job: 'job-1' },
    ]);
  });

  it('asks ZooKeeper nothing in a lab without scheduler workers, and takes a missing status/ for an empty one', async () => {
    const paths = new LabPaths(join(dir, 'lab2'));
    const zk = await new FakeEnsemble().connect();
    const calls: string[] = [];
    const spy = new Proxy(zk, {
      get(target, prop, receiver) {
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function'
          ? (...args: unknown[]) => {
              calls.push(String(prop));
              return (v as (...a: unknown[]) => unknown).apply(target, args);
            }
          : v;
      },
    });
    const sampler = new StatusSampler(paths);
    await sampler.sample(spy, { ...emptyState(), contenders: [{ ...worker('c1'), scheduler: undefined }] });
    expect(calls).toEqual([]);
    await sampler.sample(spy, { ...emptyState(), contenders: [worker('c1')] });
    expect(calls).toEqual(['getChildren']);
    expect(readLabEvents(paths.labEventsFile)).toEqual([]);
  });
});
