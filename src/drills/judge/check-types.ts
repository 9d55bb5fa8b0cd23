export interface Measurement {
  /** e.g. "failover after kill c1 (SIGKILL)". */
  readonly name: string;
  /** null when the thing measured never happened (no failover at all). */
  readonly value: number | null;
  readonly unit: 'ms' | 'count';
  /** Wall-clock time it refers to. */
  readonly t?: number;
}

export interface CheckDetail {
  readonly level: 'violation' | 'warning' | 'info';
  readonly t?: number;
  readonly message: string;
}

export interface CheckResult {
  /** The checker's name (checkers.ts). */
  readonly name: string;
  readonly passed: boolean;
  /** One line, for the terminal. */
  readonly summary: string;
  readonly details: readonly CheckDetail[];
  readonly measurements: readonly Measurement[];
  /** Why the check could not be judged (the run stopped before its history was whole); absent when it was. */
  readonly notJudged?: string;
}
