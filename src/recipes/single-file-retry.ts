/** Bounded retries with exponential backoff, for operations whose outcome a connection loss leaves unknown. */
export interface Backoff {
  readonly attempts: number;
  readonly firstMs: number;
  readonly maxMs: number;
}

/** 8 attempts, waiting 50 ms doubling up to 2 s between them: about 5 s before giving up. */
export const SINGLE_FILE_BACKOFF: Backoff = { attempts: 8, firstMs: 50, maxMs: 2000 };

/** The wait after failed attempt number `attempt` (1-based). */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** (attempt - 1));
}

export class RetriesExhausted extends Error {
  constructor(
    readonly op: string,
    readonly attempts: number,
    readonly last: unknown,
  ) {
    super(`${op}: gave up after ${attempts} attempts: ${last instanceof Error ? last.message : String(last)}`);
    this.name = 'RetriesExhausted';
  }
}

export interface RetryHooks {
  isRetryable(error: unknown): boolean;
  /** Called before each wait, with the number of the attempt that failed. */
  onRetry(attempt: number, delayMs: number, error: unknown): void;
  sleep(ms: number): Promise<void>;
}

/** Runs `fn` until it succeeds; rethrows a non-retryable error at once, and RetriesExhausted after the last attempt. */
export async function withRetries<T>(
  op: string,
  fn: () => Promise<T>,
  backoff: Backoff,
  hooks: RetryHooks,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!hooks.isRetryable(e)) throw e;
      if (attempt >= backoff.attempts) throw new RetriesExhausted(op, attempt, e);
      const delayMs = backoffDelay(backoff, attempt);
      hooks.onRetry(attempt, delayMs, e);
      await hooks.sleep(delayMs);
    }
  }
}
