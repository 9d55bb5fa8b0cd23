/** One measured figure of a benchmark, with its target when the issue sets one. */
export interface BenchRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** e.g. "≤ 1.25" — for people. */
  readonly target?: string;
  readonly pass?: boolean;
}

export type BenchModule = { run: () => Promise<BenchRow[]> };

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
