import { describe, expect, it } from 'vitest';
import { checkStatusTtl } from '../../../src/drills/judge/check-status-ttl.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { lab } from './fixtures.js';
import { workers } from './job-fixtures.js';

const seen = (t: number, job: string, ctime: number, ttlMs: number | null = 3000) =>
  lab(t, 'status-seen', { path: '/scheduler', job, ctime, ttlMs });
const gone = (t: number, job: string) => lab(t, 'status-gone', { path: '/scheduler', job });
const judge = (labEvents: Parameters<typeof buildHistory>[1], end: number, slack?: number) =>
  checkStatusTtl(buildHistory(workers, labEvents, { start: 0, end }), slack === undefined ? {} : { slack });

describe('checkStatusTtl', () => {
  it('passes status nodes reaped within TTL + reaper interval + slack, and measures the worst', () => {
    const r = judge(
      [seen(1100, 'job-1', 1000), seen(1100, 'job-2', 1050), gone(4600, 'job-1'), gone(5300, 'job-2')],
      9000,
    );
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('2 status node(s) went in time, at most 1.25s past their TTL');
    expect(r.measurements).toEqual([
      { name: 'status nodes judged', value: 2, unit: 'count' },
      { name: 'longest life beyond the TTL', value: 1250, unit: 'ms' },
    ]);
  });

  it('fails a node that went later than its bound', () => {
    const r = judge([seen(1100, 'job-1', 1000), gone(7500, 'job-1')], 9000);
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe(
      'status of job-1 went 6.5s after its creation at +1s, later than its TTL 3s + 1s reaper interval + 2s slack',
    );
    expect(judge([seen(1100, 'job-1', 1000), gone(7500, 'job-1')], 9000, 3000).passed).toBe(true);
  });

  it('fails a node still there at the end though its deadline had passed', () => {
    const r = judge([seen(1100, 'job-1', 1000)], 9000);
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe(
      'status of job-1 was still there at the end, 8s after its creation at +1s, later than its TTL 3s + 1s reaper interval + 2s slack',
    );
  });

  it('fails a node whose data carries no TTL', () => {
    const r = judge([seen(1100, 'job-1', 1000), seen(1100, 'job-2', 1000, null), gone(4500, 'job-1')], 9000);
    expect(r.passed).toBe(false);
    expect(r.details.map((d) => d.message)).toContain(
      'status of job-2 (seen +1.1s) carries no TTL in its data: nothing says when it should go',
    );
  });

  it('fails a drill that ends before any deadline, saying it must outlast the TTL', () => {
    const r = judge([seen(1100, 'job-1', 1000)], 5000);
    expect(r.passed).toBe(false);
    expect(r.summary).toMatch(
      /none of the 1 status node\(s\) seen outlived its TTL during the drill: the drill must outlast the TTL/,
    );
    expect(judge([], 5000).summary).toMatch(/^no status node was seen/);
  });

  it('tells apart a status node made again after the first one went', () => {
    const r = judge([seen(1100, 'job-1', 1000), gone(4500, 'job-1'), seen(9100, 'job-1', 9000)], 10_000);
    expect(r.passed).toBe(true);
    expect(r.measurements[0]?.value).toBe(1);
  });
});
