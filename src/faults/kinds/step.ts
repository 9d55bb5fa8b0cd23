import type { z } from 'zod';
import { parseDuration } from '../../duration.js';
import type { LabPaths } from '../../lab/paths.js';
import { FAULT_SCOPES, type FaultScope, isFaultScope, SCOPE_WORDS } from '../scope.js';
import type { Resolved, TargetKind } from '../targets.js';

/**
 * A fault kind's drill step, as its module writes it: the drill reader (src/drills/steps/) makes a step kind of it,
 * adding what every step has (its line, strict fields, the report's wording of an alias). Either a step of its own
 * (`<key>: { target, … }`, or `<key>: <target>`) or a mode of another kind's step (`partition: { <mode>: … }`).
 */
export type FaultStep = OwnStep | ModeStep;

/**
 * zod, as the drill reader hands it to a kind's step: a kind's module imports no validator at run time, so that
 * the verbs that apply it (`zklab net loss`) load none.
 */
export type Zod = typeof z;

/** A target in a step's value; which kinds of target it may name is checked when the step is built. */
export const stepTarget = (zod: Zod) => zod.string().min(1);

/** A duration in ms (`300`, `300ms`, `1s`); `missing` is the hint shown when it is absent. */
export const stepDuration = (zod: Zod, missing = 'add it, e.g. 3s') =>
  zod.unknown().transform((value, ctx): number => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `is required (${missing})` });
      return zod.NEVER;
    }
    const r = parseDuration(value);
    if ('error' in r) {
      ctx.addIssue({ code: 'custom', message: r.error });
      return zod.NEVER;
    }
    return r.ms;
  });

/** `scope: node | process` of a kill or a pause (src/faults/scope.ts). */
export const stepScope = (zod: Zod) =>
  zod.unknown().transform((value, ctx): FaultScope => {
    if (isFaultScope(value)) return value;
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not a scope (use ${FAULT_SCOPES.join(' or ')}: ${SCOPE_WORDS})`,
    });
    return zod.NEVER;
  });

/** What every target of a fault step may name by default. */
export const FAULT_TARGETS: readonly TargetKind[] = ['leader', 'zk-leader', 'contender', 'server'];

/** What the target of a step that lifts faults (resume, heal) may name: those, or `all`. */
export const FAULT_TARGETS_OR_ALL: readonly TargetKind[] = [...FAULT_TARGETS, 'all'];

/** A field path inside a step's value (`['split', 0, 1]`), for problems. */
export type StepField = readonly (string | number)[];

/** What building a step may check and report. */
export interface StepBuild {
  /** The failpoints the drill's contenders have; null when the contenders section is itself invalid. */
  readonly failpoints: readonly string[] | null;
  /** Checks a target against what exists when the step runs (a problem at `field`); returns it. */
  target(name: string, field: StepField, allowed?: readonly TargetKind[]): string;
  /** Reports a problem with the step, at `field` inside its value (default: the value itself). */
  problem(message: string, field?: StepField): void;
}

/** What a drill run remembers of a step's alias: the latest pause's, or the latest partition's. */
export type Memory = 'paused' | 'partitioned';

/** What running a step may use. */
export interface StepRun {
  readonly paths: LabPaths;
  /** The run's interrupt: a wait inside a step (a freeze landing, servers serving again) ends with it. */
  readonly signal: AbortSignal;
  /** Where ZooKeeper is installed, when the run was told (servers started again start from it). */
  readonly zkHome?: string;
  /** Contenders and servers this run froze and has not thawed yet (for `resume: all`). */
  readonly frozen: Set<string>;
  /** "leader → c1" when the step named an alias, else the name. */
  shown(name: string, r: Resolved): string;
  /** Remembers what a pause's or partition's `leader` / `zk-leader` hit, so that `resume leader` thaws that one. */
  remember(memory: Memory, name: string, r: Resolved): void;
  /** The member a resume or heal means: for `leader` / `zk-leader`, what the latest pause or partition of it hit. */
  recall(memory: Memory, name: string, verb: string): Resolved;
}

/** What a run of the step did: the report's line, and when the fault was applied (just before the call). */
export interface StepApplied {
  readonly description: string;
  /** Default: when the step began. */
  readonly appliedAt?: number;
  /** More than the line says: what it hit ("pid 412, 3 processes"), what it lifted. */
  readonly detail?: string;
}

interface StepCommon<V, T, K extends string> {
  /** The step's key in a drill file (a mode's: the key of the step it is a mode of). */
  readonly key: K;
  /** One line: what it does (a mode's: what it cuts, after its name), for `zklab drill steps`. */
  readonly summary: string;
  /**
   * Whether it changes the system, so that newLeaderWithin measures from it (default true); false for a step that
   * only arms a fault for later.
   */
  readonly fault?: boolean;
  /** The step its value describes, after checking what the schema cannot; null when a problem was reported. */
  build(value: V, ctx: StepBuild): T | null;
  /** One line, as the drill file says it (running it may say more). */
  describe(step: T): string;
  /** The names it acts on: a drill run with --connect refuses a step that names a server. */
  names(step: T): readonly string[];
  /** The server it acts on, where `names` cannot tell (`all` servers); default: the first of `names` that is one. */
  server?(step: T): string | undefined;
  run(ctx: StepRun, step: T): Promise<StepApplied>;
}

/** What a step of its own adds: how a drill file writes it. */
interface OwnStepCommon {
  /** Whole steps as a drill file writes them (`kill: { target: leader, scope: process }`), simplest first. */
  readonly examples: readonly string[];
  /** What a step written without a value means (`- heal`, `heal:`); without it, the step needs a value. */
  readonly bare?: unknown;
}

/** `key: { ...fields }`, a step of its own; with `shorthand`, `key: x` is short for `key: { <shorthand>: x }`. */
export interface FieldsStep<
  F extends z.core.$ZodLooseShape = z.core.$ZodLooseShape,
  T = unknown,
  K extends string = string,
> extends StepCommon<z.output<z.ZodObject<F>>, T, K>,
    OwnStepCommon {
  readonly mode?: undefined;
  readonly fields: (zod: Zod) => F;
  readonly shorthand?: keyof F & string;
  readonly value?: undefined;
}

/** `key: value`, a step of its own whose value is one thing (a target). */
export interface ValueStep<S extends z.ZodType = z.ZodType, T = unknown, K extends string = string>
  extends StepCommon<z.output<S>, T, K>,
    OwnStepCommon {
  readonly mode?: undefined;
  readonly fields?: undefined;
  readonly value: (zod: Zod) => S;
}

/** A step of its own, `key: …`. */
export type OwnStep = FieldsStep | ValueStep;

/** `key: { field: value }`, one of the exclusive modes of another kind's step; what it builds sits beside `mode`. */
export interface ModeStep<S extends z.ZodType = z.ZodType, T extends object = object, K extends string = string>
  extends StepCommon<z.output<S>, T, K> {
  /** The field of the step's value that selects this mode. */
  readonly mode: string;
  readonly value: (zod: Zod) => S;
  /**
   * The mode as a drill file writes it inside its step (`<mode>: [c1, c2]`), for the problem that lists a step's
   * modes and for the step's examples.
   */
  readonly example: string;
}

/** A step of its own with fields, typed by its fields and its key (the drill reader's step type comes from them). */
export const ownStep = <F extends z.core.$ZodLooseShape, T, const K extends string>(s: FieldsStep<F, T, K>) => s;

/** A step of its own whose value is one thing, typed by it and its key. */
export const valueStep = <S extends z.ZodType, T, const K extends string>(s: ValueStep<S, T, K>) => s;

/** A mode of another step, typed by its value. */
export const modeStep = <S extends z.ZodType, T extends object, const K extends string>(s: ModeStep<S, T, K>) => s;

type OwnStepType<S> = S extends { readonly mode?: undefined; readonly key: infer Key; describe(step: infer T): string }
  ? { readonly kind: Key } & T
  : never;

/** The step a drill file's `key: value` becomes, for each step of its own the kinds `K` have. */
export type OwnStepOf<K> = K extends { readonly steps: readonly (infer S)[] } ? OwnStepType<S> : never;
