import type { DrillProgress } from './progress.js';
import type { ExpectationResult, StepResult } from '../judge/result.js';
import type { DrillLab } from './drill-lab.js';
import type { Drill } from '../format/drill.js';
import type { JobStream } from './job-stream.js';

/** A jobs step streaming in the background, and where it came from (for messages). */
export interface BackgroundStream {
  readonly index: string;
  readonly line: number;
  readonly description: string;
  readonly count: number;
  readonly stream: JobStream;
}

/** A fault's aim as the step named it (`leader`, `zk-leader`) and what that resolved to. */
export type Alias = 'leader' | 'zk-leader';

/** Everything one run of a drill keeps while its steps run. */
export interface RunState {
  readonly drill: Drill;
  readonly lab: DrillLab;
  readonly signal: AbortSignal;
  readonly zkHome?: string;
  /** The drill's clock: offsets in the report count from here. */
  readonly startedAt: number;
  readonly steps: StepResult[];
  readonly expectations: ExpectationResult[];
  /** The latest step that changed the system, and who led just before it (for newLeaderWithin). */
  lastFault?: { readonly t: number; readonly leaderBefore: string | null };
  /** What `leader` / `zk-leader` named in the latest pause and partition, so `resume leader` thaws the same one. */
  readonly pausedAlias: Map<Alias, string>;
  readonly partitionedAlias: Map<Alias, string>;
  /** Contenders and servers this run froze and has not thawed yet (for `resume: all`). */
  readonly frozen: Set<string>;
  /** Jobs steps still streaming, or done: the run waits for them before it is judged. */
  readonly streams: BackgroundStream[];
  readonly report: (p: DrillProgress) => void;
  /** Set when a step could not be carried out: the run stopped there. */
  broke?: string;
}
