/** One measured figure of a benchmark, with its target when the issue sets one. */
export interface BenchRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** e.g. "≤ 1.25" — for people. */
  readonly target?: string;
  readonly pass?: boolean;
}

/** How much work a run does: the full sizes (`npm run bench`) or the smoke's, the least that still produces every row. */
export interface BenchOptions {
  /** Seconds instead of minutes, for the test suite: it proves the benchmark runs; its figures mean nothing. */
  readonly smoke: boolean;
}

export type BenchModule = { run: (opts: BenchOptions) => Promise<BenchRow[]> };

/** `full` in a full run, `smoke` in a smoke run: one benchmark's count, duration or list of cases. */
export function sized<T>(opts: BenchOptions, full: T, smoke: T): T {
  return opts.smoke ? smoke : full;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
