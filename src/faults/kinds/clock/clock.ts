import { UsageError } from '../../../errors.js';
import { fields, type LabLinesOf } from '../../../lab/event-schema.js';
import { contenderOf } from '../../../lab/events.js';
import type { LabPaths } from '../../../lab/paths.js';
import { type LabState, requireState } from '../../../lab/state.js';
import { readFileSync } from 'node:fs';
import type { Target } from '../../aim.js';
import type { Resolved } from '../../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from '../kind.js';
import { FAULT_TARGETS_OR_ALL, ownStep, stepTarget, type Zod } from '../step.js';
import { parseOffset, parseRate } from './clock-args.js';
import { drifted, readClockFile, realNowNs, skewed, TRUE_CLOCK, writeClockFile } from './clock-file.js';
import { shimLibrary } from './library.js';
import { clockFileOf, clockList, fakedNodes } from './node-clocks.js';
import { clockState, driftWords, resetWords, skewWords } from './words.js';

/**
 * Clock faults: a node's wall clock jumps (skew), runs fast or slow (drift), or is true again (reset), for every
 * process of the node and no one else; the machine's clock is never touched. Every node is started with zklab's
 * clock shim preloaded (shim.c, built by library.ts), which reads the node's clock file (clock-file.ts);
 * a fault rewrites that file. `zklab clock skew|drift|reset|list`, drill step `clock: { target, offset | rate }`,
 * `clock: { reset: <target> | all }`. ZKLAB_CLOCK=off starts nodes without the shim.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const aim = () => import('../../aim.js');

export type ClockChange =
  | { readonly kind: 'skew'; readonly offsetMs: number }
  | { readonly kind: 'drift'; readonly rate: number }
  | { readonly kind: 'reset' };

const events = {
  /** A node's wall clock changed: skewed by offsetMs, drifting at rate, or reset (true time again). */
  clock: fields<{
    description: string;
    target: string;
    node: string;
    offsetMs?: number;
    rate?: number;
    reset?: boolean;
  }>(),
};
type ClockLine = LabLinesOf<typeof events>;

interface ClockArgs {
  readonly node: string;
  readonly change: ClockChange;
}

/** The node's clock file rewritten: the same on every network, since it acts on the node's processes. */
const onNode: BackendHooks<ClockArgs> = {
  async apply(paths, { node, change }) {
    const path = clockFileOf(paths, node);
    const now = realNowNs();
    const was = readClockFile(path);
    const next =
      change.kind === 'skew'
        ? skewed(was, now, change.offsetMs)
        : change.kind === 'drift'
          ? drifted(was, now, change.rate)
          : TRUE_CLOCK;
    writeClockFile(path, next);
  },
  async lift(paths, { node }) {
    writeClockFile(clockFileOf(paths, node), TRUE_CLOCK);
  },
};

// Loaded for a lab on hosts alone: its SSH channel (execa) costs every other command ~70 ms of start-up.
const onHosts = () => import('../../../hosts/node-env.js');

/**
 * On hosts: the node's clock file here is the record (`clock list`, inspect read it), and each change is copied to
 * the file on the node's host in the same three writes: the sequence made odd, the body, the sequence even again.
 */
async function pushClock(paths: LabPaths, node: string): Promise<void> {
  const file = clockFileOf(paths, node);
  const bytes = readFileSync(file);
  const odd = Buffer.alloc(8);
  odd.writeBigUInt64LE(bytes.readBigUInt64LE(0) - 1n, 0);
  await (await onHosts()).writeInPlace(paths, requireState(paths), node, file, [
    { offset: 0, bytes: odd },
    { offset: 8, bytes: bytes.subarray(8) },
    { offset: 0, bytes: bytes.subarray(0, 8) },
  ]);
}

const onHost: BackendHooks<ClockArgs> = {
  async apply(paths, args) {
    await onNode.apply(paths, args);
    await pushClock(paths, args.node);
  },
  async lift(paths, args) {
    await onNode.lift!(paths, args);
    await pushClock(paths, args.node);
  },
};

/** On hosts: every process of the node on its host must have mapped its clock file there (reach.ts, over SSH). */
async function refuseUnreachableOnHost(paths: LabPaths, state: LabState, node: string, file: string): Promise<void> {
  const h = await onHosts();
  const there = h.remoteFileOf(paths, state, file);
  const missing = await (await import('../../../hosts/remote-node.js'))
    .unmappedOnHost(paths, state, node, there)
    .catch(() => {
      throw new UsageError(`${node} is not running: a clock fault would act on nothing`, 'name a running node');
    });
  if (missing)
    throw new UsageError(
      `${node}'s clock cannot be faked: ${missing.program} (pid ${missing.pid} on its host) has not loaded the clock shim`,
      'clock faults reach dynamically linked programs that read the clock through libc and keep their LD_PRELOAD',
    );
}

export interface ClockResult {
  readonly node: string;
  readonly description: string;
}

const describeChange = (node: string, change: ClockChange): string =>
  change.kind === 'skew'
    ? skewWords(node, change.offsetMs)
    : change.kind === 'drift'
      ? driftWords(node, change.rate)
      : resetWords(node);

/**
 * Changes the target's wall clock (resolved now when it is a name). A reset of `all` resets every faked node. Refused
 * with nothing changed where the fault cannot reach every process of the node (reach.ts).
 */
export async function applyClock(paths: LabPaths, t: Target, change: ClockChange): Promise<ClockResult[]> {
  const state = requireState(paths);
  const hooks = hooksFor<ClockArgs>(clock, state);
  if (t === 'all') {
    if (change.kind !== 'reset')
      throw new UsageError('only a reset may name all', 'name one node: zkN, cN, leader or zk-leader');
    const nodes = fakedNodes(paths).map((n) => n.node);
    for (const node of nodes) await changeClock(paths, hooks, 'all', node, change);
    return nodes.map((node) => ({ node, description: resetWords(node) }));
  }
  const target: Resolved = await (await aim()).resolve(paths, t);
  const path = clockFileOf(paths, target.name);
  if (change.kind !== 'reset') {
    if (state.hosts) await refuseUnreachableOnHost(paths, state, target.name, path);
    else (await import('./reach.js')).refuseUnreachable(paths, state, target.name, path);
  }
  const asked = typeof t === 'string' ? t : t.name;
  return [{ node: target.name, description: await changeClock(paths, hooks, asked, target.name, change) }];
}

async function changeClock(
  paths: LabPaths,
  hooks: BackendHooks<ClockArgs>,
  asked: string,
  node: string,
  change: ClockChange,
): Promise<string> {
  await (change.kind === 'reset' ? hooks.lift!(paths, { node, change }) : hooks.apply(paths, { node, change }));
  const description = describeChange(node, change);
  (await import('../../../lab/event-log.js')).recordLabLine(paths, events, 'clock', {
    description,
    target: asked,
    node,
    ...(change.kind === 'skew' ? { offsetMs: change.offsetMs } : {}),
    ...(change.kind === 'drift' ? { rate: change.rate } : {}),
    ...(change.kind === 'reset' ? { reset: true } : {}),
  });
  return description;
}

/** A validator's answer as a step's field: the value, or the problem as the drill reader reports it. */
const checked =
  <T>(parse: (v: unknown) => { error: string } | T) =>
  (zod: Zod) =>
    zod.unknown().transform((value, ctx): T => {
      const r = parse(value);
      if (typeof r === 'object' && r !== null && 'error' in r) {
        ctx.addIssue({ code: 'custom', message: r.error });
        return zod.NEVER;
      }
      return r as T;
    });

interface ClockStep {
  readonly target: string;
  readonly change: ClockChange;
}

const describeStep = (s: ClockStep): string =>
  s.change.kind === 'reset' ? `clock reset ${s.target}` : describeChange(s.target, s.change);

export const clock = {
  name: 'clock',
  description:
    "Fake a node's wall clock: skew it (a jump), let it drift (run fast or slow), reset it; its own processes only",
  needs: 'a clock fault',
  events,
  backends: { proxy: onNode, ns: onNode, hosts: onHost },
  windows: [
    windowRule<ClockLine>({
      event: 'clock',
      colour: '#e377c2',
      // A reset is the end of one, not a fault.
      opens: (e) => e.reset !== true,
      label: (e) => e.description,
      hits: (e) => [e.node],
      // Another change of the same node's clock replaces it; a restart starts the node with a true clock; a contender
      // killed or stopped has no clock left to fake.
      endedBy: (ev, e) =>
        e.event === 'clock'
          ? e.node === ev.node
          : e.event === 'server-restarted' || e.event === 'ensemble-repaired'
            ? e.servers.includes(ev.node)
            : (e.event === 'contender-killed' || e.event === 'contender-stopped') && contenderOf(e) === ev.node,
    }),
  ],
  inspect: {
    nodes: (paths) =>
      clockList(paths).map((r) => ({ node: r.node, text: `clock ${clockState(r.offsetMs, r.rateValue)}` })),
  },
  doctor() {
    const lib = shimLibrary();
    const name = 'clock faults (zklab clock)';
    if ('path' in lib) {
      const off = process.env.ZKLAB_CLOCK === 'off' ? '; ZKLAB_CLOCK=off: nodes start without it now' : '';
      return [{ name, ok: true, detail: `every node starts with the clock shim (${lib.path})${off}` }];
    }
    return [{ name, ok: false, detail: `unavailable: ${lib.why}`, fix: lib.fix }];
  },
  atNodeStart(node) {
    if (process.env.ZKLAB_CLOCK === 'off') return undefined;
    return readyNode(clockFileOf(node.paths, node.node));
  },
  steps: [
    ownStep({
      key: 'clock',
      summary:
        "Fake a node's wall clock: offset jumps it to true time + offset, rate makes it run fast or slow from now " +
        'on, reset makes it true again',
      examples: ['clock: { target: leader, offset: -30s }', 'clock: { target: zk1, rate: 2 }', 'clock: { reset: all }'],
      fields: (z) => ({
        target: stepTarget(z).optional(),
        offset: checked((v) => parseOffset(v))(z).optional(),
        rate: checked((v) => parseRate(v))(z).optional(),
        reset: stepTarget(z).optional(),
      }),
      build: (v, ctx): ClockStep | null => {
        const given = [v.offset, v.rate, v.reset].filter((x) => x !== undefined).length;
        if (given !== 1) {
          ctx.problem('give one of offset, rate or reset (e.g. { target: zk1, offset: +30s } or { reset: all })');
          return null;
        }
        if (v.reset !== undefined) {
          if (v.target !== undefined) {
            ctx.problem('a reset names its node itself: write { reset: zk1 } or { reset: all }', ['target']);
            return null;
          }
          return { target: ctx.target(v.reset, ['reset'], FAULT_TARGETS_OR_ALL), change: { kind: 'reset' } };
        }
        if (v.target === undefined) {
          ctx.problem('name the node whose clock changes: target: zk1, cN, leader or zk-leader', ['target']);
          return null;
        }
        const target = ctx.target(v.target, ['target']);
        return v.offset !== undefined
          ? { target, change: { kind: 'skew', offsetMs: v.offset.ms } }
          : { target, change: { kind: 'drift', rate: v.rate!.rate } };
      },
      describe: describeStep,
      names: (s) => (s.target === 'all' ? [] : [s.target]),
      async run(ctx, s) {
        const appliedAt = Date.now();
        if (s.target === 'all') {
          const done = await applyClock(ctx.paths, 'all', s.change);
          const detail = done.length === 0 ? 'no clock was faked' : done.map((d) => d.description).join(', ');
          return { description: describeStep(s), detail, appliedAt };
        }
        const r = await (await aim()).resolve(ctx.paths, s.target);
        await applyClock(ctx.paths, r, s.change);
        return { description: describeStep(s).replace(s.target, ctx.shown(s.target, r)), appliedAt };
      },
    }),
  ],
} satisfies FaultKind<typeof events>;

/**
 * What a node starts with to be ready for clock faults: the shim preloaded, and its clock file, true for now (a node
 * started again starts with a true clock). None when the shim cannot be built (`zklab doctor` says why).
 */
function readyNode(path: string): { env: Record<string, string> } | undefined {
  const lib = shimLibrary();
  if (!('path' in lib)) return undefined;
  writeClockFile(path, TRUE_CLOCK);
  const preload = [lib.path, process.env.LD_PRELOAD].filter((p) => p !== undefined && p !== '').join(':');
  return { env: { LD_PRELOAD: preload, ZKLAB_CLOCK_FILE: path } };
}
