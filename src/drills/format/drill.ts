/**
 * A parsed, validated drill. Durations are milliseconds; every step keeps the line it came from so the runner and
 * the report can point back at the file. See schema.ts for the YAML format.
 */

import type { ContenderSpec } from '../../contenders/spec.js';
import type { CheckConfig, CheckName } from '../judge/checkers.js';
import type { EnsembleSpec } from '../core/types.js';
import type { Step } from '../steps/registry.js';

export interface Drill {
  /** The file it came from, as given to parseDrill (for messages). */
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly ensemble: EnsembleSpec;
  readonly contenders: ContenderSpec;
  /** The line of the contenders section, for the runner's set-up step. */
  readonly contendersLine?: number;
  readonly steps: readonly Step[];
  readonly checks: CheckConfig;
  /** Checks this drill exists to make fail (a lesson in what goes wrong); the drill passes only if they fail. */
  readonly expectFailure: readonly CheckName[];
  /** The same drill with other contenders, each run on a fresh lab and judged on its own (see expandVariants). */
  readonly variants?: readonly DrillVariant[];
}

export interface DrillVariant {
  readonly name: string;
  readonly contenders: ContenderSpec;
  readonly expectFailure: readonly CheckName[];
}
