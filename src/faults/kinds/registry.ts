import { type EventSchemas, labLineGuard, type LabLinesOf } from '../../lab/event-schema.js';
import { LAB_EVENTS, type LabEvent } from '../../lab/events.js';
import type { LabState } from '../../lab/state.js';
import { setNodeStartHook } from '../../lab/node-start.js';
import type { Check } from '../../ensemble/doctor.js';
import type { LabPaths } from '../../lab/paths.js';
import type { FaultKind, LinkView, NodePrep, NodeStart, NodeView, WindowRule } from './kind.js';
import { clock } from './clock/clock.js';
import { delay } from './delay.js';
import { failpoint } from './failpoint.js';
import { heal } from './heal.js';
import { isolate } from './isolate.js';
import { kill } from './kill.js';
import { loss } from './loss.js';
import { oneWay } from './one-way.js';
import { pause } from './pause.js';
import { restart } from './restart.js';
import { split } from './split.js';
import { stop } from './stop.js';
import type { ModeStep, OwnStep, OwnStepOf } from './step.js';

/**
 * Every kind of fault the lab has, one module each (kind.ts says what a module holds). The drill steps, the judges,
 * `inspect` and the report read this list; each CLI verb, inspect's keys and the demo call their kind's module.
 *
 * Adding a kind (as the clock faults were):
 *  1. write `kinds/<kind>.ts` (or a folder, `kinds/clock/`, when it needs more than a module): a FaultKind with its
 *     name and one-line description; its arguments, their checks and the function that applies it; `backends` (the
 *     hooks that apply and lift it on the link proxies, the node namespaces, hosts: a kind that acts on processes
 *     gives each the same); `events` (the fields of each lab line only it writes; a line other code reads by name, as
 *     lab/ reads a kill's, stays declared in lab/events.ts); `windows` (how a judge reads its lines as fault windows,
 *     and their colour in the report; kinds that write one event list one rule, as partition-line.ts's); `inspect`,
 *     if it shows on links or on nodes; `doctor`, if it needs something of the machine; `steps`, its drill steps
 *     (`clock: { … }`, listed after `delay` among a drill's step kinds unless src/drills/steps/registry.ts names its
 *     key) or its modes of another kind's step (`partition: { … }`); `atNodeStart`, if every node must be prepared
 *     for it when it starts (the clock shim preloaded through its environment, as clock/clock.ts does);
 *  2. add it to FAULT_KINDS below (a mode's place there is its place among its step's modes, in their messages);
 *  3. give it a CLI verb: a command file in src/cli/commands/ (`zklab clock skew|drift|reset|list`), listed in
 *     src/cli/main.ts, which calls the module's function and describes itself with the kind's description.
 * Its drill steps, its windows, its events in the readers and its view in `inspect` then follow from the list.
 */
export const FAULT_KINDS = [
  kill,
  pause,
  isolate,
  split,
  oneWay,
  heal,
  delay,
  loss,
  stop,
  restart,
  failpoint,
  clock,
] as const satisfies readonly FaultKind[];

export type RegisteredKind = (typeof FAULT_KINDS)[number];

const KINDS: readonly FaultKind[] = FAULT_KINDS;

const BY_NAME: ReadonlyMap<string, FaultKind> = new Map(KINDS.map((k): [string, FaultKind] => [k.name, k]));

export const faultKindNamed = (name: string): FaultKind | undefined => BY_NAME.get(name);

type EventsOf<K> = K extends { readonly events?: infer S extends EventSchemas } ? LabLinesOf<S> : never;
/** A line of an event some kind declares itself. */
export type KindLine = EventsOf<RegisteredKind>;
/** A line of the lab's own log, of an event the lab or one of its fault kinds declares. */
export type LabLine = LabEvent | KindLine;

const KIND_EVENTS: EventSchemas = Object.assign({}, ...KINDS.map((k) => k.events ?? {}));

/** Whether a parsed line is a LabLine: the guard for the readers of the lab's log (lab/event-log.ts). */
export const isLabLine: (v: unknown) => v is LabLine = labLineGuard({ ...LAB_EVENTS, ...KIND_EVENTS }) as (
  v: unknown,
) => v is LabLine;

const WINDOWS: ReadonlyMap<string, WindowRule> = new Map(
  KINDS.flatMap((k) => k.windows ?? []).map((w): [string, WindowRule] => [w.event, w]),
);

/** How a judge reads lines of `event` as fault windows; undefined when they open none. */
export const windowRuleOf = (event: string): WindowRule | undefined => WINDOWS.get(event);

/** Every window rule, in the registry's order. */
export const windowRules = (): readonly WindowRule[] => [...WINDOWS.values()];

/** The link faults the kinds' rules make, from the lab's state (the node network: no daemon reports them). */
export const kindLinks = (state: LabState): LinkView[] => KINDS.flatMap((k) => k.inspect?.links?.(state) ?? []);

/** A link fault in few words, when a kind says how (`loss 10%`). */
export const kindLinkText = (link: LinkView): string | undefined => faultKindNamed(link.fault)?.inspect?.text?.(link);

/** The faults the kinds keep on nodes rather than links (a faked clock), for `inspect`. */
export const kindNodes = (paths: LabPaths, state: LabState): NodeView[] =>
  KINDS.flatMap((k) => k.inspect?.nodes?.(paths, state) ?? []);

/** What the kinds that need something of the machine say of it, for `zklab doctor`. */
export const kindChecks = (): Check[] => KINDS.flatMap((k) => k.doctor?.() ?? []);

/** A drill step of a kind's own, as its module builds it: its key as `kind`, and what the module built. */
export type KindStep = OwnStepOf<RegisteredKind>;

const STEPS = KINDS.flatMap((k) => k.steps ?? []);

/** The drill steps of their own the kinds have (`<key>: …`), in the registry's order. */
export const ownSteps = (): readonly OwnStep[] => STEPS.filter((s): s is OwnStep => s.mode === undefined);

/** The modes kinds add to the step `key` (`partition: { <mode>: … }`), in the registry's order. */
export const stepModes = (key: string): readonly ModeStep[] =>
  STEPS.filter((s): s is ModeStep => s.mode !== undefined && s.key === key);

/** Has every node the lab starts in this process prepared by the kinds that ask (src/lab/node-start.ts). */
export function installNodeStart(): void {
  setNodeStartHook(nodeStartPrep);
}

/** What a node carries from its start for every kind that asks (later kinds' environment wins a clash). */
export function nodeStartPrep(node: NodeStart): Required<NodePrep> {
  const preps = KINDS.map((k) => k.atNodeStart?.(node)).filter((p) => p !== undefined);
  return { env: Object.assign({}, ...preps.map((p) => p.env ?? {})) };
}
