import { beforeEach, describe, expect, it } from 'vitest';
import type { submitJobs } from '../../../src/contenders/jobs.js';
import { JobStream as RealJobStream } from '../../../src/drills/lab/job-stream.js';
import { LabPaths } from '../../../src/lab/paths.js';

const submitted: { t: number; count: number }[] = [];
let failAfter = Infinity;

/** Records what the stream submits, when, instead of writing jobs to a lab; fails after `failAfter` submissions. */
const submit = (async (_paths: unknown, opts: { count: number }) => {
  if (submitted.length >= failAfter) throw new Error('connection loss');
  submitted.push({ t: Date.now(), count: opts.count });
  return { root: '/scheduler', jobs: [], workers: 3 };
}) as unknown as typeof submitJobs;

class JobStream extends RealJobStream {
  constructor(...args: [LabPaths, number, { kind: 'sleep'; ms: number }, number, AbortSignal]) {
    super(...args, submit);
  }
}

const paths = new LabPaths('/nonexistent-lab');
const spec = { kind: 'sleep', ms: 10 } as const;

describe('JobStream', () => {
  beforeEach(() => {
    submitted.length = 0;
    failAfter = Infinity;
  });

  it('submits every job, spread over the time asked for, and reports it is done', async () => {
    const start = Date.now();
    const stream = new JobStream(paths, 10, spec, 300, new AbortController().signal);
    expect(stream.active).toBe(true);
    expect(await stream.done).toEqual({ submitted: 10 });
    expect(stream.active).toBe(false);
    expect(submitted.reduce((n, s) => n + s.count, 0)).toBe(10);
    // The first job at once, the last one at 9/10 of the time: spread, not all at the start.
    expect(submitted[0]!.t - start).toBeLessThan(100);
    expect(submitted.at(-1)!.t - start).toBeGreaterThanOrEqual(250);
    expect(submitted.length).toBeGreaterThan(3);
  });

  it('stops when asked, and when the run is aborted', async () => {
    const stream = new JobStream(paths, 100, spec, 10_000, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 250));
    const end = await stream.stop();
    expect(end.error).toBeUndefined();
    expect(end.submitted).toBeGreaterThan(0);
    expect(end.submitted).toBeLessThan(10);
    const run = new AbortController();
    const aborted = new JobStream(paths, 100, spec, 10_000, run.signal);
    run.abort();
    expect((await aborted.done).submitted).toBeLessThan(100);
  });

  it('ends with the error of a submission that failed, and how many went before it', async () => {
    failAfter = 2;
    const end = await new JobStream(paths, 10, spec, 200, new AbortController().signal).done;
    expect(end).toEqual({ submitted: end.submitted, error: 'connection loss' });
    expect(end.submitted).toBeGreaterThanOrEqual(2);
    expect(end.submitted).toBeLessThan(10);
  });
});

describe('settleStreams', () => {
  it('waits for a stream to finish before the run is judged, and breaks the run when a stream failed', async () => {
    const { settleStreams } = await import('../../../src/drills/lab/streams.js');
    type State = Parameters<typeof settleStreams>[0];
    failAfter = Infinity;
    const said: string[] = [];
    const good = new JobStream(paths, 3, spec, 100, new AbortController().signal);
    const state = {
      streams: [
        { index: '2', line: 5, description: 'stream 3 sleep jobs (10ms each) over 100ms', count: 3, stream: good },
      ],
    } as unknown as State;
    await settleStreams(state, true, (m) => said.push(m));
    expect(good.active).toBe(false);
    expect(said).toEqual(['waiting for step 2 (stream 3 sleep jobs (10ms each) over 100ms) to submit the rest']);
    expect(state.broke).toBeUndefined();
    failAfter = 0;
    const bad = new JobStream(paths, 3, spec, 100, new AbortController().signal);
    const broken = {
      streams: [
        { index: '3', line: 6, description: 'stream 3 sleep jobs (10ms each) over 100ms', count: 3, stream: bad },
      ],
    } as unknown as State;
    await settleStreams(broken, true);
    expect(broken.broke).toBe(
      'step 3 (line 6) stream 3 sleep jobs (10ms each) over 100ms: submitted 0 of 3, then: connection loss',
    );
  });
});
