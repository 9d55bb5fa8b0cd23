import type { z } from 'zod';
import type { ContenderTraits } from '../../core/contender-traits.js';
import type { History } from '../../judge/history.js';
import type { BuildContext, LastFault } from '../kind.js';

export interface ExpectationBase {
  readonly kind: string;
}

export type ExpectationStatus = 'passed' | 'failed' | 'pending';

export interface ExpectationContext {
  /** The history as recorded so far, built with `end` = now. */
  readonly history: History;
  /** When the expect step started. */
  readonly stepStart: number;
  /** The latest fault step run before this one (kill, pause, partition, stop…) and who led just before it. */
  readonly lastFault?: LastFault;
  readonly now: number;
  /** A jobs step is still streaming jobs in the background: "every job submitted so far" is not final yet. */
  readonly streaming?: boolean;
}

export interface ExpectationVerdict {
  readonly status: ExpectationStatus;
  readonly detail: string;
}

/**
 * One kind of expectation, `<kind>: <value>` inside an expect step: how its value is read and checked, how it reads
 * in the report and how it is judged. The registry (registry.ts) lists every kind, in the order the expect step's
 * messages name them.
 */
export interface ExpectationKind<E extends ExpectationBase = ExpectationBase, S extends z.ZodType = z.ZodType> {
  readonly kind: E['kind'];
  /** How an expect step writes it (`newLeaderWithin: 3s`), for the step's examples. */
  readonly example: string;
  /** The schema of its value. */
  readonly schema: S;
  /** What an expect step whose contenders it cannot judge is told; undefined: it can. */
  needs?(contenders: ContenderTraits): string | undefined;
  /** The expectations its value describes (`state` names one per contender), after checking targets. */
  build(value: z.output<S>, ctx: BuildContext): E[];
  /** One line, as the drill file says it. */
  describe(e: E): string;
  /** How long after its step it may take to decide; the step gives up on it some time after that. Default 0. */
  bound?(e: E): number;
  /**
   * Its verdict on the history so far; `pending` means "not decided yet, evaluate again later": the expect step
   * polls until the verdict is final.
   */
  evaluate(e: E, ctx: ExpectationContext): ExpectationVerdict;
}
