import type { Drill } from '../format/drill.js';
import type { ExpectationResult, StepResult } from '../judge/result.js';
import type { LastFault, StepRunContext } from '../steps/kind.js';
import type { DrillProgress } from './progress.js';

/** Everything one run of a drill keeps while its steps run. */
export interface RunState extends StepRunContext {
  readonly drill: Drill;
  readonly steps: StepResult[];
  readonly expectations: ExpectationResult[];
  /** Set by the runner after each fault step. */
  lastFault?: LastFault;
  readonly report: (p: DrillProgress) => void;
  /** Set when a step could not be carried out: the run stopped there. */
  broke?: string;
}
