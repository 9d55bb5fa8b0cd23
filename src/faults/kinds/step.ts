import type { z } from 'zod';
import type { LabPaths } from '../../lab/paths.js';
import type { Resolved, TargetKind } from '../targets.js';

/**
 * A fault kind's drill step, as its module writes it: the drill reader (src/drills/steps/) makes a step kind of it,
 * adding what every step has (its line, strict fields, the report's wording of an alias). Either a step of its own
 * (`<key>: { target, … }`) or a mode of another kind's step (`partition: { <mode>: … }`).
 */
export type FaultStep = OwnStep | ModeStep;

/**
 * zod, as the drill reader hands it to a kind's step: a kind's module imports no validator at run time, so that
 * the verbs that apply it (`zklab net loss`) load none.
 */
export type Zod = typeof z;

/** A target in a step's value; which kinds of target it may name is checked when the step is built. */
export const stepTarget = (zod: Zod) => zod.string().min(1);

/** What every target of a fault step may name by default. */
export const FAULT_TARGETS: readonly TargetKind[] = ['leader', 'zk-leader', 'contender', 'server'];

/** A field path inside a step's value (`['split', 0, 1]`), for problems. */
export type StepField = readonly (string | number)[];

/** What building a step may check and report. */
export interface StepBuild {
  /** Checks a target against what exists when the step runs (a problem at `field`); returns it. */
  target(name: string, field: StepField, allowed?: readonly TargetKind[]): string;
  /** Reports a problem with the step, at `field` inside its value (default: the value itself). */
  problem(message: string, field?: StepField): void;
}

/** What running a step may use. */
export interface StepRun {
  readonly paths: LabPaths;
  /** "leader → c1" when the step named an alias, else the name. */
  shown(name: string, r: Resolved): string;
  /** Remembers what a partition's `leader` / `zk-leader` hit, so that `heal leader` lifts the same one. */
  partitioned(name: string, r: Resolved): void;
}

/** What a run of the step did: the report's line, and when the fault was applied (just before the call). */
export interface StepApplied {
  readonly description: string;
  readonly appliedAt: number;
}

interface StepCommon<V, T, K extends string> {
  /** The step's key in a drill file (a mode's: the key of the step it is a mode of). */
  readonly key: K;
  /** The step its value describes, after checking what the schema cannot; null when a problem was reported. */
  build(value: V, ctx: StepBuild): T | null;
  /** One line, as the drill file says it (running it may say more). */
  describe(step: T): string;
  /** The names it acts on: a drill run with --connect refuses a step that names a server. */
  names(step: T): readonly string[];
  run(ctx: StepRun, step: T): Promise<StepApplied>;
}

/** `key: { ...fields }`, a step of its own. */
export interface OwnStep<
  F extends z.core.$ZodLooseShape = z.core.$ZodLooseShape,
  T = unknown,
  K extends string = string,
> extends StepCommon<z.output<z.ZodObject<F>>, T, K> {
  readonly mode?: undefined;
  readonly fields: (zod: Zod) => F;
}

/** `key: { field: value }`, one of the exclusive modes of another kind's step. */
export interface ModeStep<S extends z.ZodType = z.ZodType, T = unknown, K extends string = string>
  extends StepCommon<z.output<S>, T, K> {
  /** The field of the step's value that selects this mode. */
  readonly mode: string;
  readonly value: (zod: Zod) => S;
  /** The mode as a drill file writes it, for the problem that lists a step's modes (`<mode>: [c1, c2]`). */
  readonly example: string;
}

/** A step of its own, typed by its fields and its key (the drill reader's step type comes from them). */
export const ownStep = <F extends z.core.$ZodLooseShape, T, const K extends string>(s: OwnStep<F, T, K>) => s;

/** A mode of another step, typed by its value. */
export const modeStep = <S extends z.ZodType, T, const K extends string>(s: ModeStep<S, T, K>) => s;

/** The step a drill file's `key: value` becomes, for each kind of `kinds` with a step of its own. */
export type OwnStepOf<K> = K extends { readonly step: OwnStep<infer _F, infer T, infer Key> }
  ? { readonly kind: Key } & T
  : never;
