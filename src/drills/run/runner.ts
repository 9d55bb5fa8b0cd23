import { randomInt } from 'node:crypto';
import { checksNotJudged, runChecks } from '../judge/checkers.js';
import { formatDuration } from '../../duration.js';
import { buildHistory } from '../judge/history.js';
import type { DrillProgress } from './progress.js';
import { rememberHistory, type DrillResult } from '../judge/result.js';
import { DrillLab } from '../lab/drill-lab.js';
import { SamplerProcess } from './sampler-process.js';
import type { RunState } from './state.js';
import { settleStreams } from '../lab/streams.js';
import { runOne, runSteps } from './steps.js';
import type { NetMode } from '../../lab/node/net.js';
import type { HostsRequest } from '../../hosts/hosts-file.js';
import type { Drill } from '../format/drill.js';
import { expandVariants } from '../format/variants.js';

export interface RunOptions {
  /** Where the run's lab goes: this directory if it does not exist yet, else a new one under it (DrillLab.open). */
  readonly labDir?: string;
  /** Seeds the run's randomness (the links' delay jitter) and is recorded in the result; default: a random seed, reported. */
  readonly seed?: number;
  /** Aborting stops the run: everything it started is torn down, then the abort reason is thrown. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: DrillProgress) => void;
  readonly zkHome?: string;
  /** Run against this ensemble (HOST:PORT,…) instead of one of the drill's own: contender-side faults only. */
  readonly connect?: string;
  /** The lab's network, whatever the drill says (`drill run --net`). */
  readonly net?: NetMode;
  /** The lab on hosts reached over SSH (`drill run --hosts`): the hosts file read, and where nodes go. */
  readonly hosts?: HostsRequest;
}

/**
 * Runs a drill on a fresh lab: the ensemble, the contenders (one at a time, each after the previous one joined, so
 * c1 leads first), the steps, then the checkers over the whole history. The lab is torn down in every case.
 * A step that could not be carried out ends the run and is reported in the result's `error`.
 */
export async function runDrill(drill: Drill, opts: RunOptions = {}): Promise<DrillResult> {
  const signal = opts.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  // One run is one variant: a caller that forgot expandVariants would judge the base drill without its expected failures.
  if (drill.variants) throw new Error(`drill ${drill.name} has variants: run each of expandVariants(drill)`);
  const report = opts.onProgress ?? (() => undefined);
  const seed = opts.seed ?? randomInt(2 ** 31);
  const lab = DrillLab.open(`drill run ${drill.name}`, opts.labDir);
  const say = (message: string) => report({ kind: 'lab', t: Date.now(), message });
  const sampler = new SamplerProcess(lab.paths);
  let state: RunState | undefined;
  try {
    const upAt = Date.now();
    say(`lab ${lab.paths.root} (seed ${seed})`);
    const ensemble = opts.net === undefined ? drill.ensemble : { ...drill.ensemble, net: opts.net };
    await lab.up(ensemble, {
      signal,
      seed,
      ...(opts.zkHome ? { zkHome: opts.zkHome } : {}),
      ...(opts.connect ? { connect: opts.connect } : {}),
      ...(opts.hosts ? { hosts: opts.hosts } : {}),
    });
    say(
      opts.connect
        ? `ensemble outside the lab: ${opts.connect} (contenders through link proxies of their own)`
        : `ensemble up: ${ensemble.servers} server(s), tick ${ensemble.tick}ms, ` +
            `${opts.hosts ? `on hosts (${opts.hosts.file.file})` : `net ${ensemble.net}`} ` +
            `(${formatDuration(Date.now() - upAt)})`,
    );
    sampler.start();
    state = {
      drill,
      lab,
      signal,
      ...(opts.zkHome ? { zkHome: opts.zkHome } : {}),
      startedAt: Date.now(),
      steps: [],
      expectations: [],
      pausedAlias: new Map(),
      partitionedAlias: new Map(),
      frozen: new Set(),
      streams: [],
      report,
    };
    const setUp = { kind: 'spawn' as const, line: drill.contendersLine ?? 1, count: drill.contenders.count };
    let ran = false;
    if (await runOne(state, setUp, '0')) {
      delete state.lastFault; // the contenders' arrival is the starting line, not a fault
      ran = await runSteps(state, drill.steps);
    }
    // Every job a step asked for is part of what is judged: a stream still submitting is waited for.
    await settleStreams(state, ran, say);
    signal.throwIfAborted();
    // ZooKeeper's side of the history runs to the end: the sampler's last look comes after the last step.
    await sampler.stop();
    return result(drill, state, seed, Date.now(), ran);
  } catch (e) {
    // An interrupted wait throws a generic AbortError; the caller wants to know why it was interrupted.
    throw signal.aborted ? signal.reason : e;
  } finally {
    if (state) await settleStreams(state, false);
    await sampler.stop();
    const stopped = await lab.close();
    say(`torn down: ${stopped} process(es) stopped, lab removed`);
  }
}

/** Where a run that stopped part-way stopped: the last step it ran (every later one is recorded as skipped). */
function stoppedAt(state: RunState): string {
  const s = state.steps.findLast((x) => x.outcome !== 'skipped');
  if (s === undefined) return 'the drill stopped before its steps were done';
  return `the drill stopped at step ${s.index} (line ${s.line}): ${s.description} ${s.outcome === 'timeout' ? 'timed out' : 'failed'}`;
}

function result(drill: Drill, state: RunState, seed: number, endedAt: number, ran: boolean): DrillResult {
  const events = state.lab.events();
  const history = buildHistory(events.contender, events.lab, { start: state.startedAt, end: endedAt });
  const r: DrillResult = {
    drill: {
      name: drill.name,
      ...(drill.description === undefined ? {} : { description: drill.description }),
      file: drill.file,
      expectFailure: drill.expectFailure,
    },
    seed,
    startedAt: state.startedAt,
    endedAt,
    steps: state.steps,
    expectations: state.expectations,
    checks: ran ? runChecks(history, drill.checks) : checksNotJudged(drill.checks, stoppedAt(state)),
    contenderEvents: events.contender,
    labEvents: events.lab,
    ...(state.broke === undefined ? {} : { error: state.broke }),
  };
  return rememberHistory(r, history);
}

/** Runs the drill `times` times, one after the other, each on a fresh lab; run k uses seed + k - 1. */
export async function runDrillRepeatedly(drill: Drill, times: number, opts: RunOptions = {}): Promise<DrillResult[]> {
  const seed = opts.seed ?? randomInt(2 ** 31 - times);
  const results: DrillResult[] = [];
  for (let k = 0; k < times; k++) {
    if (times > 1) opts.onProgress?.({ kind: 'lab', t: Date.now(), message: `run ${k + 1} of ${times}` });
    results.push(await runDrill(drill, { ...opts, seed: seed + k }));
  }
  return results;
}

/**
 * Every run a drill asks for: the drill, or each of its variants, `times` times (see runDrillRepeatedly), one after
 * the other. `onVariant` hears when a variant's runs begin, when there are several.
 */
export async function runDrillVariants(
  drill: Drill,
  times: number,
  opts: RunOptions & { readonly onVariant?: (name: string) => void } = {},
): Promise<DrillResult[]> {
  const { onVariant, ...options } = opts;
  const runs = expandVariants(drill);
  const results: DrillResult[] = [];
  for (const run of runs) {
    if (runs.length > 1) onVariant?.(run.name);
    results.push(...(await runDrillRepeatedly(run, times, options)));
  }
  return results;
}
