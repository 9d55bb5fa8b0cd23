import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  RetriesExhausted,
  SINGLE_FILE_BACKOFF,
  withRetries,
} from '../../../src/recipes/single-file-retry.js';

class Flaky extends Error {}

/** fn failing `failures` times with a retryable error, then returning 'ok'; records waits instead of sleeping. */
function harness(failures: number) {
  let calls = 0;
  const slept: number[] = [];
  const retried: number[] = [];
  const fn = async (): Promise<string> => {
    calls++;
    if (calls <= failures) throw new Flaky(`failure ${calls}`);
    return 'ok';
  };
  const hooks = {
    isRetryable: (e: unknown) => e instanceof Flaky,
    onRetry: (attempt: number) => void retried.push(attempt),
    sleep: async (ms: number) => void slept.push(ms),
  };
  return { fn, hooks, slept, retried, calls: () => calls };
}

describe('backoffDelay', () => {
  it('starts at 50 ms and doubles up to 2 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffDelay(SINGLE_FILE_BACKOFF, a))).toEqual([
      50, 100, 200, 400, 800, 1600, 2000, 2000,
    ]);
  });
});

describe('withRetries', () => {
  it('returns at once when the first attempt succeeds', async () => {
    const h = harness(0);
    await expect(withRetries('op', h.fn, SINGLE_FILE_BACKOFF, h.hooks)).resolves.toBe('ok');
    expect(h.slept).toEqual([]);
  });

  it('retries retryable failures with growing waits and returns the eventual result', async () => {
    const h = harness(3);
    await expect(withRetries('op', h.fn, SINGLE_FILE_BACKOFF, h.hooks)).resolves.toBe('ok');
    expect(h.retried).toEqual([1, 2, 3]);
    expect(h.slept).toEqual([50, 100, 200]);
    expect(h.calls()).toBe(4);
  });

  it('succeeds on the last allowed attempt', async () => {
    const h = harness(7);
    await expect(withRetries('op', h.fn, SINGLE_FILE_BACKOFF, h.hooks)).resolves.toBe('ok');
    expect(h.calls()).toBe(8);
  });

  it('gives up after 8 attempts with RetriesExhausted carrying the last error', async () => {
    const h = harness(100);
    const err = await withRetries('create', h.fn, SINGLE_FILE_BACKOFF, h.hooks).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect(err).toMatchObject({ op: 'create', attempts: 8 });
    expect((err as RetriesExhausted).last).toBeInstanceOf(Flaky);
    expect((err as Error).message).toContain('failure 8');
    expect(h.calls()).toBe(8);
    expect(h.slept).toEqual([50, 100, 200, 400, 800, 1600, 2000]);
  });

  it('rethrows a non-retryable error at once, without waiting', async () => {
    const h = harness(0);
    const boom = new Error('NODEEXISTS');
    await expect(withRetries('op', async () => Promise.reject(boom), SINGLE_FILE_BACKOFF, h.hooks)).rejects.toBe(boom);
    expect(h.slept).toEqual([]);
  });
});
