import type { Check } from '../../ensemble/doctor.js';
import { UsageError } from '../../errors.js';
import type { EventSchemas } from '../../lab/event-schema.js';
import type { LabEvent } from '../../lab/events.js';
import type { LabPaths } from '../../lab/paths.js';
import type { NodePrep, NodeStart } from '../../lab/node-start.js';
import { type LabState, netModeOf } from '../../lab/state.js';
import type { FaultStep } from './step.js';

/**
 * One kind of fault (Toxiproxy's toxic, Jepsen's nemesis): everything particular to it, in its module under
 * src/faults/kinds/, listed by registry.ts. The drill steps, the judges, `inspect` and the report know a kind only
 * through the registry, and a verb calls its kind's module; src/net/ and src/lab/ give it generic primitives
 * (packet rules, delays, drops, a typed event log), faults/ the resolving of its targets and the signals to a node.
 */
export interface FaultKind<S extends EventSchemas = EventSchemas> {
  /** The registry's name for it (a drill step's key is the step's own, see `steps`). */
  readonly name: string;
  /** One line: what it does, as the CLI's help says it. */
  readonly description: string;
  /** The lab events only it writes, each declared (lab/event-schema.ts); the lab's readers take them beside the lab's own. */
  readonly events?: S;
  /**
   * How a judge finds its windows in the lab's log, and how the report colours them: one rule per opening event
   * (kinds that write the same event, as isolate and split write `partition`, list the same rule).
   */
  readonly windows?: readonly WindowRule[];
  /**
   * How it is applied and lifted on each kind of network. A backend it has no hooks for refuses it, saying why in
   * its own words (`needs`, below, names the fault in them); a kind that acts on processes rather than on a network
   * gives each the same hooks.
   */
  readonly backends: Partial<Record<Backend, BackendHooks<never, unknown>>>;
  /** Words for a refusal on a backend it lacks: "packet loss", "a one-way cut". */
  readonly needs?: string;
  /** One line for the verb that lifts it, when that verb is its own (`zklab resume`, `zklab net clear`). */
  readonly liftDescription?: string;
  /**
   * Run when a node of the lab is started, before its program: what the node must carry for the kind to act on it
   * later (a clock fault preloads its shim, clock/shim.c, through the environment). Most kinds need nothing.
   */
  atNodeStart?(node: NodeStart): NodePrep | undefined;
  /** How `inspect` shows it on the links (the faults the lab's rules make, read from the lab's state). */
  readonly inspect?: InspectHooks;
  /** What `zklab doctor` says of it, when it needs something of the machine (clock faults: a C compiler). */
  doctor?(): readonly Check[];
  /**
   * Its drill steps (`kill:`; a pause's `pause:` and `resume:`), or its modes of another kind's step
   * (`partition: { isolate: … }`).
   */
  readonly steps?: readonly FaultStep[];
}

/**
 * Where a lab's faults act: its link proxies (`--net proxy`), its nodes' network namespaces (`--net ns`), and
 * hosts reached over SSH (a backend to come).
 */
export type Backend = 'proxy' | 'ns' | 'hosts';

/**
 * What a kind does on one backend. `A`: the arguments its module has checked and resolved; `R`: what applying it
 * tells (the pid a kill hit).
 */
export interface BackendHooks<A = never, R = void> {
  apply(paths: LabPaths, args: A): Promise<R>;
  /**
   * Undoes it, telling what applying tells; none where nothing can (a kill), or where another kind lifts it (a heal
   * lifts an isolation).
   */
  lift?(paths: LabPaths, args: A): Promise<R>;
}

/** The backend a lab's faults act on now. */
export const backendOf = (state: LabState): Backend => netModeOf(state);

/** What each backend says of a kind it has no hooks for: why it cannot act, and what to do instead. */
const REFUSALS: Readonly<Record<Backend, { readonly why: string; readonly hint?: string }>> = {
  proxy: {
    why: "needs the lab's node network: link proxies carry whole connections, both ways",
    hint: 'start the lab with `zklab ensemble up --net ns` (root), where the kernel cuts packets',
  },
  ns: { why: "cannot act on this lab's network (ns)" },
  hosts: {
    why: 'is not built for a lab on hosts yet',
    hint: 'on this machine, `zklab ensemble up --net ns` has it',
  },
};

/** The hooks of `kind` on the lab's backend; refused, with nothing touched, when it has none there. */
export function hooksFor<A, R = void>(kind: FaultKind, state: LabState): BackendHooks<A, R> {
  const backend = backendOf(state);
  const hooks = kind.backends[backend] as BackendHooks<A, R> | undefined;
  if (hooks) return hooks;
  const { why, hint } = REFUSALS[backend];
  throw new UsageError(`${kind.needs ?? kind.name} ${why}`, hint);
}

export type { NodePrep, NodeStart } from '../../lab/node-start.js';

/** The head every lab line has, for a window rule that reads lines of other kinds too. */
interface LineHead {
  readonly t: number;
  readonly event: string;
}

/**
 * How a judge reads one event of the lab's log as a fault window (src/drills/judge/fault-windows.ts), and how the
 * report colours it. `L`: the line of that event.
 */
export interface WindowRule<L extends LineHead = LineHead> {
  /** The event that opens a window; also the window's kind in the report (its colour, class and legend). */
  readonly event: L['event'];
  readonly colour: string;
  /** Whether this line opens one (default: every line of the event). */
  opens?(line: L): boolean;
  label(line: L): string;
  /**
   * When the fault began, where that is before its line was written (a stop's SIGTERM, sent before its program
   * closed its session and exited: a hand-over may be claimed in between); default: the line's time.
   */
  start?(line: L): number;
  /** The members it cuts off, stops or kills. */
  hits(line: L): readonly string[];
  /** Whether a later line ends it; without, the fault is instantaneous (a kill: start == end). */
  endedBy?(line: L, later: LabEvent | L): boolean;
}

/** A rule typed by the line of its event (the kind holds it as a WindowRule of any line). */
export const windowRule = <L extends LineHead>(r: WindowRule<L>): WindowRule => r as unknown as WindowRule;

/** One directed link fault as `inspect` shows it (its SnapshotPartition). */
export interface LinkView {
  readonly from: string;
  readonly to: string;
  /** partition, reject, delay, or the name of the kind that made it. */
  readonly fault: string;
  readonly delayMs?: number;
  readonly lossPercent?: number;
}

export interface InspectHooks {
  /** The link faults of this kind in the lab's state, where no link daemon reports them (the node network). */
  links?(state: LabState): readonly LinkView[];
  /** A link fault of this kind in few words: `loss 10%`. */
  text?(link: LinkView): string;
  /** The faults of this kind on nodes rather than links, in few words each (`zk1 clock +30s`). */
  nodes?(paths: LabPaths, state: LabState): readonly NodeView[];
}

/** A fault on one node as `inspect` shows it. */
export interface NodeView {
  readonly node: string;
  /** `clock +30s, runs at 1.5×`. */
  readonly text: string;
}
