import type { z } from 'zod';
import type { ContenderSpec } from '../../contenders/spec.js';
import type { TargetKind, TargetScope } from '../../faults/targets.js';
import type { ContenderTraits } from '../core/contender-traits.js';
import type { ExpectationResult, StepOutcome } from '../judge/result.js';
import type { Alias } from '../core/aliases.js';
import type { DrillLab } from '../lab/drill-lab.js';
import type { BackgroundStream } from '../lab/streams.js';

/** A field path inside a step's value (`['split', 0, 1]`), for problems. */
export type FieldPath = readonly (string | number)[];

export interface StepBase {
  readonly kind: string;
  /** 1-based line of the step in the drill file. */
  readonly line: number;
}

/** What building a step may look at and report to. */
export interface BuildContext {
  /** What exists when the step runs (the steps before it may have added some); null: only the shape is checked. */
  readonly scope: TargetScope | null;
  /** Null when the contenders section is itself invalid: what depends on it is not checked. */
  readonly contenders: ContenderTraits | null;
  /** Checks a target against the scope (a problem at `field`); returns it. */
  target(name: string, allowed: readonly TargetKind[], field?: FieldPath): string;
  /** Reports a problem with the step, at `field` inside its value (default: the value itself). */
  problem(message: string, field?: FieldPath): void;
  /** Reports a problem when the contenders are no scheduler. */
  needsScheduler(field?: FieldPath): void;
}

/** A fault's time and who led just before it, which newLeaderWithin measures from. */
export interface LastFault {
  readonly t: number;
  readonly leaderBefore: string | null;
}

/** What running a step may use of the run: the lab, and what earlier steps left for later ones. */
export interface StepRunContext {
  readonly drill: { readonly contenders: ContenderSpec };
  readonly lab: DrillLab;
  readonly signal: AbortSignal;
  readonly zkHome?: string;
  /** The drill's clock: offsets in the report count from here. */
  readonly startedAt: number;
  readonly expectations: ExpectationResult[];
  /** The latest step that changed the system (see StepKind.fault). */
  readonly lastFault?: LastFault;
  /** What `leader` / `zk-leader` named in the latest pause and partition, so `resume leader` thaws the same one. */
  readonly pausedAlias: Map<Alias, string>;
  readonly partitionedAlias: Map<Alias, string>;
  /** Contenders and servers this run froze and has not thawed yet (for `resume: all`). */
  readonly frozen: Set<string>;
  /** Jobs steps still streaming, or done: the run waits for them before it is judged. */
  readonly streams: BackgroundStream[];
}

/** What a step did, for its StepResult. */
export interface StepDone {
  /** Default ok; a wait that timed out stops the run, a failed expectation does not. */
  readonly outcome?: Exclude<StepOutcome, 'skipped'>;
  /** Default the step's description; a fault says what its target resolved to ("kill leader → c1"). */
  readonly description?: string;
  readonly detail?: string;
  /** When a fault step changed the system (just before the service call); default when the step began. */
  readonly appliedAt?: number;
}

/**
 * One kind of drill step, `<kind>: <value>` in a drill file: how its value is read and checked, how it reads in the
 * report and how it runs. The registry (registry.ts) lists every kind; `repeat`, which holds steps, is the step
 * list's own (format/steps.ts, run/steps.ts).
 */
export interface StepKind<T extends StepBase = StepBase, S extends z.ZodType = z.ZodType> {
  readonly kind: T['kind'];
  /** One line: what it does (`zklab drill steps` lists it with the fields and the examples). */
  readonly summary: string;
  /** Whole steps as a drill file writes them (`kill: { target: leader, scope: process }`), simplest first. */
  readonly examples: readonly string[];
  /** The schema of its value. */
  readonly schema: S;
  /** What a step written without a value means (`- heal`, `heal:`); without it, a step of the kind needs a value. */
  readonly bare?: unknown;
  /** The fields inside its value, to explain one written next to the kind instead. */
  readonly fields?: readonly string[];
  /** It changes the system: newLeaderWithin measures from the latest such step. */
  readonly fault?: boolean;
  /** The step its value describes, after checking what the schema cannot (targets, what the contenders run). */
  build(value: z.output<S>, ctx: BuildContext): Omit<T, 'line'> | null;
  /** What exists after it, for the steps that follow (spawn and add make more). */
  after?(step: T, scope: TargetScope): TargetScope;
  /** One line, as the drill file says it (running it may say more). */
  describe(step: T): string;
  /** The server it acts on or waits for: a drill run with --connect cannot touch servers. */
  server?(step: T): string | undefined;
  run(ctx: StepRunContext, step: T, index: string): Promise<StepDone>;
}

/** How often a step that waits looks at the event logs and the servers again. */
export const POLL_MS = 50;
