import { describe, expect, it } from 'vitest';
import type { JobsStatus } from '../../../../src/contenders/jobs.js';
import { renderJobsStatus, renderWatchFailure } from '../../../../src/cli/views/jobs.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is stripped
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

const STATUS: JobsStatus = {
  root: '/scheduler',
  at: 0,
  workers: [{ worker: 'w1', contender: 'c1', assigned: 1 }],
  pending: [{ job: 'job-0000000002', attempt: 1, waitingMs: 1500 }],
  assigned: [{ job: 'job-0000000001', worker: 'w1', live: false, attempt: 2, sinceMs: 300 }],
  done: [
    {
      job: 'job-0000000000',
      ok: true,
      result: 5,
      error: null,
      worker: 'w1',
      attempt: 1,
      ttlMs: 30_000,
      expiresInMs: 12_000,
    },
  ],
  executions: { 'job-0000000000': 2 },
};

describe('the jobs view', () => {
  it('shows each place of a job as a table, under a summary line', () => {
    expect(plain(renderJobsStatus(STATUS)).split('\n')).toEqual([
      '/scheduler: 1 pending, 1 assigned, 1 done; 1 worker (w1: 1)',
      '',
      'pending',
      'job             attempt  waiting',
      'job-0000000002  1        1.5s',
      '',
      'assigned',
      'job             worker     since  attempt  runs',
      'job-0000000001  w1 (gone)  300ms  2        0',
      '',
      'done',
      'job             outcome  worker  attempt  runs  status TTL left',
      'job-0000000000  ok = 5   w1      1        2     12s of 30s',
    ]);
  });

  it('says when a moment of a watch could not be read', () => {
    expect(renderWatchFailure({ failed: 'connection loss', at: Date.UTC(2024, 0, 1, 12, 30, 5, 250) })).toBe(
      '12:30:05.250 cannot read the scheduler now: connection loss; trying again',
    );
  });
});
