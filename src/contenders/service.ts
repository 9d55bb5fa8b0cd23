import { labSessionBounds } from '../ensemble/config.js';
import { existsSync } from 'node:fs';
import { EnvironmentError, ProcessError, UsageError } from '../errors.js';
import { isServing, probeServer } from '../ensemble/quorum.js';
import { recordLabEvent } from '../lab/event-log.js';
import { registerLongLived } from '../lab/registry.js';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, stopProcesses } from '../lab/node/procs.js';
import { isPaused, killNodes, labContainment, labNode, newLabContainment, spawnNode } from '../lab/nodes.js';
import { nodeSizes } from '../lab/node/group.js';
import { lastProbed } from '../lab/acting-intervals.js';
import {
  directConnectString,
  nodeHost,
  emptyState,
  externalServers,
  readState,
  requireState,
  upstreams,
  writeState,
  type ContenderRecord,
  type LabState,
} from '../lab/state.js';
import { entryPoint } from '../entry-points.js';
import { encodeChildConfig, type ChildConfig } from './child-config.js';
import { readEventFile } from '../lab/event-log.js';
import { type ContenderSpec, runsProgram } from './spec.js';
import { ensureProber, probeOf, resolveProbe } from './probing.js';
import { EXEC_CHILD_ENTRY, launchProgramContender, programFor } from './program.js';
import { type JoinProgress, type SpawnUndo, undoSpawn, waitJoined } from './join.js';
import { readZkView, type ZkContenderView } from './zk-view.js';
import { effectiveRule } from './leader-rule.js';
import { withObserver } from '../zk/observer.js';
import { formatLeaderRule } from '../recipes/leadership.js';
import type { RecipeName } from '../recipes/types.js';
import { summarizeEvents, withProcessFacts, type ContenderSummary } from './summary.js';
import { ensureDir } from '../lab/fs.js';
import {
  addContenderNodes,
  contenderConnect,
  dropContenderNodes,
  ensureNetwork,
  forgetGoneContenderLinks,
} from '../net/lab-network.js';
import { withDaemon } from '../net/control.js';
import { memberNetwork, networkStatus, type MemberNetwork, type NetworkStatus } from '../net/status.js';

export const CHILD_ENTRY = entryPoint('contenders/child');

export interface ContenderInfo extends ContenderSummary {
  readonly id: string;
  readonly pid: number | null;
  /** Its program (the supervisor of one run by --exec) lives. */
  readonly alive: boolean;
  /** How many processes its node holds: the program and all it started (a daemon outlives a dead program). */
  readonly node: number;
  /** What its probe said last, while its node has a process; null without a probe, or before it said anything. */
  readonly probed: { readonly leads: boolean | null; readonly since: number; readonly why?: string } | null;
  readonly recipe: string;
  readonly path: string;
  readonly priority: number | null;
  readonly site: string | null;
  /** `scheduler` for the task scheduler's workers (whose election is the predecessor recipe); null otherwise. */
  readonly workload: string | null;
}

/** Where a contender connects; by default its own link proxies, one per server of the lab's ensemble. */
export type ConnectStringFor = (id: string, state: LabState) => Promise<string> | string;

async function ensureReachable(state: LabState): Promise<void> {
  if (state.servers.length === 0) return;
  const probes = await Promise.all(state.servers.map((s) => probeServer(state, s, 800)));
  if (!probes.some((p) => isServing(p.mode))) {
    throw new UsageError(
      "no server of the lab's ensemble is serving",
      'start it with `zklab ensemble up` (or use --connect HOST:PORT for another ensemble)',
    );
  }
}

// Loaded for a lab on hosts alone: its SSH channel (execa) costs every other command ~70 ms of start-up.
const onHosts = () => import('./host-contenders.js');

/** A small young generation: a busy worker otherwise grows its RSS by tens of MB of garbage between scavenges. */
const CHILD_FLAGS = ['--max-old-space-size=64', '--max-semi-space-size=2'];

async function launchContender(paths: LabPaths, state: LabState, cfg: ChildConfig): Promise<number> {
  if (state.hosts) return (await onHosts()).launchOnHost(paths, state, 'contenders/child', CHILD_FLAGS, cfg);
  const args = [...CHILD_FLAGS, CHILD_ENTRY, paths.nodeMarker, `--id=${cfg.id}`, encodeChildConfig(cfg)];
  const child = spawnNode(paths, cfg.id, state, process.execPath, args, paths.contenderLog(cfg.id));
  if (child.pid === undefined) throw new ProcessError(`could not start contender ${cfg.id}`);
  return child.pid;
}

export interface SpawnResult {
  /** The contenders this call started. */
  readonly spawned: readonly ContenderInfo[];
  /** Every contender of the lab, the new ones included, as `listContenders` would return them. */
  readonly all: readonly ContenderInfo[];
  /** The session timeouts the lab's servers grant; absent for an ensemble outside the lab, whose limits are its own. */
  readonly grants?: { readonly minMs: number; readonly maxMs: number };
}

/** What the lab's own state rules out for this request (checked before the lab changes). */
function refuseForLab(paths: LabPaths, state: LabState, req: ContenderSpec): void {
  checkLeaderRule(paths, state, req);
  checkPreempt(paths, state, req);
  if (req.via === 'observers' && !state.servers.some((s) => s.role === 'observer')) {
    throw new UsageError(
      `the ensemble in ${paths.root} has no observers to connect to`,
      'start one with observers (`zklab ensemble up --servers 3 --observers 2`) or add one (`zklab ensemble add --observer`)',
    );
  }
  if (req.lock) checkFencing(paths, state, req.path, req.lock.fencing);
}

export async function spawnContenders(
  paths: LabPaths,
  req: ContenderSpec,
  opts: { signal?: AbortSignal; connectFor?: ConnectStringFor; onJoin?: (p: JoinProgress) => void } = {},
): Promise<SpawnResult> {
  const entry = runsProgram(req.recipe) ? EXEC_CHILD_ENTRY : CHILD_ENTRY;
  if (!existsSync(entry))
    throw new EnvironmentError(`the contender program ${entry} is missing`, 'build zklab first: `npm run build`');
  // Everything that can be refused is refused before the lab changes.
  const program = await programFor(req);
  const probeCommand = await resolveProbe(req);
  const existing = readState(paths);
  // A lab pointed at an outside ensemble keeps using it when --connect is not repeated.
  const outside = req.connect ?? (existing && existing.servers.length === 0 ? existing.externalConnect : undefined);
  if (!outside && (!existing || existing.servers.length === 0)) {
    throw new UsageError(
      `there is no ensemble in ${paths.root} to contend on`,
      'start one with `zklab ensemble up`, or point at another with --connect HOST:PORT,…',
    );
  }
  if (program && req.connect !== undefined && existing && existing.servers.length > 0) {
    throw new UsageError(
      `--connect would take these programs past the link proxies of the lab at ${paths.root}, out of reach of its faults`,
      "leave out --connect to use the lab's ensemble, or use another lab (--lab DIR) for another ensemble",
    );
  }
  if (existing?.hosts && !outside) (await onHosts()).refuseOnHosts(req);
  if (existing && !outside) await ensureReachable(existing);
  refuseForLab(paths, existing ?? emptyState(), req);
  ensureDir(paths.root);
  registerLongLived(paths, 'contenders spawn');
  let before: SpawnUndo | undefined;
  const records = await withLabLock(paths, async () => {
    const state = readState(paths) ?? emptyState();
    state.containment ??= newLabContainment();
    // Again under the lock: another command may have changed the lab since.
    refuseForLab(paths, state, req);
    before = { nextContender: state.nextContender, externalConnect: state.externalConnect };
    const external = outside !== undefined && state.servers.length === 0;
    if (external) await pointAtExternal(paths, state, outside);
    // The daemon runs now (pointAtExternal starts it for an outside ensemble).
    if (req.lock) await configureResource(paths, state, req.path, req.lock.fencing);
    const created: ContenderRecord[] = [];
    const ids = Array.from({ length: req.count }, () => `c${state.nextContender++}`);
    try {
      // On the node network each contender is a node of its own: its namespace and address first. On hosts: its host.
      if (state.hosts) {
        const h = await onHosts();
        await h.placeContenders(paths, state, ids);
        await h.applyRulesToNewcomers(paths, state, ids);
      } else addContenderNodes(paths, state, ids);
      for (const [i, id] of ids.entries()) {
        const connectFor =
          opts.connectFor ??
          ((cid: string, st: LabState) =>
            upstreams(st).length > 0 && !st.hosts
              ? contenderConnect(paths, cid, st, req.via)
              : directConnectString(st, req.via));
        // Pointed at an ensemble outside the lab, a contender still goes through link proxies of its own.
        const connect = req.connect !== undefined && !external ? req.connect : await connectFor(id, state);
        const probe = probeOf(req, probeCommand, {
          connect,
          id,
          addr: nodeHost(state, id),
          path: req.path,
          sessionTimeoutMs: req.sessionTimeoutMs,
        });
        const rec: ContenderRecord = {
          id,
          recipe: req.recipe,
          path: req.path,
          priority: req.priorities?.[i],
          site: req.sites?.[i],
          ...(req.recipe === 'priority' && !req.preempt ? { preempt: false } : {}),
          ...(req.recipe === 'priority' ? { policy: req.policy } : {}),
          sessionTimeoutMs: req.sessionTimeoutMs,
          startedAt: Date.now(),
          ...(program ? { leaderRule: formatLeaderRule(req.leaderRule), program: program.shown } : {}),
          ...(req.scheduler ? { scheduler: req.scheduler } : {}),
          ...(req.lock ? { lock: req.lock } : {}),
          ...(req.via !== 'all' ? { via: req.via } : {}),
          ...(probe ? { probe } : {}),
        };
        rec.pid = program
          ? await launchProgramContender(paths, state, req, rec, program, connect)
          : await launchRecipeContender(paths, state, req, rec, connect);
        state.contenders.push(rec);
        created.push(rec);
      }
    } catch (e) {
      await stopProcesses(
        created.map((r) => r.pid!),
        'SIGKILL',
      ).catch(() => undefined);
      await killNodes(
        paths,
        state,
        created.map((r) => r.id),
      );
      dropContenderNodes(paths, state, ids);
      if (state.hosts) (await onHosts()).unplaceContenders(state, ids);
      throw e;
    }
    writeState(paths, state);
    // Probing begins with the nodes: a data plane may act before its agent has joined.
    ensureProber(paths, state);
    return created;
  });
  try {
    // Each contender of a large spawn takes its turn at the servers: the bound grows with the count.
    const timeoutMs = Math.max(req.joinTimeoutMs, req.count * 300);
    await waitJoined(paths, records, timeoutMs, { signal: opts.signal, onProgress: opts.onJoin });
  } catch (e) {
    await undoSpawn(paths, records, before!);
    throw e;
  }
  recordLabEvent(paths, 'contenders-spawned', {
    contenders: records.map((r) => r.id),
    recipe: req.scheduler ? 'scheduler' : req.lock ? `lock (${req.recipe})` : req.recipe,
  });
  const all = listContenders(paths);
  return {
    spawned: all.filter((c) => records.some((r) => r.id === c.id)),
    all,
    ...(existing && existing.servers.length > 0 ? { grants: labSessionBounds(existing.tickMs) } : {}),
  };
}

function launchRecipeContender(
  paths: LabPaths,
  state: LabState,
  req: ContenderSpec,
  rec: ContenderRecord,
  connect: string,
): Promise<number> {
  return launchContender(paths, state, {
    id: rec.id,
    recipe: req.recipe as RecipeName,
    path: req.path,
    sessionTimeoutMs: req.sessionTimeoutMs,
    onDisconnect: req.onDisconnect,
    priority: rec.priority,
    site: rec.site,
    policy: req.policy,
    takeoverMs: req.takeoverMs,
    ...(req.watchdogMs === undefined ? {} : { watchdogMs: req.watchdogMs }),
    preempt: req.preempt,
    ...(req.scheduler ? { scheduler: req.scheduler } : {}),
    ...(req.lock ? { lock: req.lock } : {}),
    labRoot: paths.root,
    connect,
    eventsFile: paths.contenderEvents(rec.id),
    memberData: JSON.stringify({
      id: rec.id,
      recipe: req.recipe,
      priority: rec.priority ?? null,
      site: rec.site ?? null,
    }),
  });
}

/**
 * One rule per election path: programs judged by another rule than the live contenders already on the path would
 * make "who leads" mean two things. (zklab's sequential recipes follow lowest-sequence, single-file single-node
 * leader, so those mix.)
 */
function checkLeaderRule(paths: LabPaths, state: LabState, req: ContenderSpec): void {
  const rule = effectiveRule(req.recipe, runsProgram(req.recipe) ? formatLeaderRule(req.leaderRule) : undefined);
  const other = state.contenders.find(
    (c) =>
      c.path === req.path &&
      effectiveRule(c.recipe, c.leaderRule) !== rule &&
      (runsProgram(req.recipe) || c.leaderRule !== undefined) &&
      isOurs(c.pid, paths.markers),
  );
  if (!other) return;
  throw new UsageError(
    `${req.path} already has contenders that lead by ${effectiveRule(other.recipe, other.leaderRule)} (${other.id}); ` +
      `these would lead by ${rule}`,
    'give them a --path of their own, or stop the others first',
  );
}

/** One pre-emption setting per priority election: whichever contender is the elector applies its own. */
function checkPreempt(paths: LabPaths, state: LabState, req: ContenderSpec): void {
  if (req.recipe !== 'priority') return;
  const other = state.contenders.find(
    (c) =>
      c.recipe === 'priority' &&
      c.path === req.path &&
      (c.preempt ?? true) !== req.preempt &&
      isOurs(c.pid, paths.markers),
  );
  if (!other) return;
  const theirs = other.preempt === false ? '--no-preempt' : 'pre-emption on';
  throw new UsageError(
    `${req.path} already has priority contenders with ${theirs} (${other.id})`,
    `spawn these the same way, use another --path, or stop the others first`,
  );
}

export function workloadOf(r: ContenderRecord): 'scheduler' | 'lock' | null {
  return r.scheduler ? 'scheduler' : r.lock ? 'lock' : null;
}

const liveHolders = (paths: LabPaths, state: LabState, path: string): ContenderRecord[] =>
  state.contenders.filter((c) => c.lock && c.path === path && isOurs(c.pid, paths.markers));

/** One fencing mode per lock while its holders live: holders that disagree would make a drill's verdict mean nothing. */
function checkFencing(paths: LabPaths, state: LabState, path: string, fencing: boolean): void {
  const other = liveHolders(paths, state, path).find((c) => c.lock!.fencing !== fencing);
  if (other) {
    throw new UsageError(
      `the lock ${path} already has holders with --fencing ${fencing ? 'off' : 'on'} (${other.id})`,
      `use --fencing ${fencing ? 'off' : 'on'} as they do, another --path, or stop them first`,
    );
  }
}

/**
 * Sets the fencing of the lock's protected resource on the lab's daemon. With no holder of it running, the register
 * starts afresh: its tokens are czxids, and the ensemble's data may have been wiped since (a new `ensemble up`).
 */
async function configureResource(paths: LabPaths, state: LabState, path: string, fencing: boolean): Promise<void> {
  const reset = liveHolders(paths, state, path).length === 0;
  await withDaemon(paths, (ctl) => ctl.request({ op: 'resource-configure', name: path, fencing, reset }));
}

/** Points a lab without an ensemble of its own at one zklab did not start, before any contender is spawned. */
export async function pointAtOutsideEnsemble(paths: LabPaths, connect: string): Promise<void> {
  ensureDir(paths.root);
  await withLabLock(paths, async () => {
    const state = readState(paths) ?? emptyState();
    if (state.servers.length > 0)
      throw new UsageError(
        `the lab at ${paths.root} has an ensemble of its own`,
        'leave out --connect, or use another lab',
      );
    await pointAtExternal(paths, state, connect);
  });
}

/**
 * Makes the lab's contenders use an ensemble zklab did not start: its servers become the far ends of their links
 * (x1..xN), and the link daemon runs so that partitions and delays act on them. One ensemble per lab.
 */
async function pointAtExternal(paths: LabPaths, state: LabState, connect: string): Promise<void> {
  if (state.externalConnect !== undefined && state.externalConnect !== connect) {
    throw new UsageError(
      `this lab's contenders already use --connect ${state.externalConnect}`,
      'use the same --connect, or another lab (--lab DIR) for another ensemble',
    );
  }
  state.externalConnect = connect;
  state.external = externalServers(connect);
  writeState(paths, state);
  await ensureNetwork(paths, state);
}

export function describeContender(
  paths: LabPaths,
  r: ContenderRecord,
  sizes: ReadonlyMap<string, number> = nodeSizes(paths, labContainment(readState(paths))),
): ContenderInfo {
  const alive = isOurs(r.pid, paths.markers);
  const frozen = alive && isPaused(r.pid!);
  const events = readEventFile(paths.contenderEvents(r.id));
  const summary = withProcessFacts(summarizeEvents(events), alive, frozen);
  const node = sizes.get(r.id) ?? 0;
  const probed = node > 0 ? lastProbed(events) : undefined;
  return {
    ...summary,
    id: r.id,
    pid: r.pid ?? null,
    alive,
    node,
    probed: probed ? { leads: probed.leads, since: probed.t, ...(probed.why ? { why: probed.why } : {}) } : null,
    recipe: r.recipe,
    path: r.path,
    priority: r.priority ?? null,
    site: r.site ?? null,
    workload: workloadOf(r),
  };
}

/** Every session each contender has had (its own log and the link daemon's record), by id, read when asked. */
export function sessionsOf(paths: LabPaths, state: LabState): (id: string) => readonly string[] {
  return (id) => {
    const r = state.contenders.find((c) => c.id === id);
    return r ? describeContender(paths, r).sessions : [];
  };
}

export function listContenders(paths: LabPaths): ContenderInfo[] {
  return describeContenders(paths, requireState(paths));
}

function describeContenders(paths: LabPaths, state: LabState): ContenderInfo[] {
  const sizes = nodeSizes(paths, labContainment(state));
  return state.contenders.map((r) => describeContender(paths, r, sizes));
}

/** The lab network as contenders see it. */
export interface ContendersNetwork {
  readonly status: NetworkStatus;
  /** What the network does to each contender, by id. */
  readonly members: ReadonlyMap<string, MemberNetwork>;
}

export interface ContendersOverview {
  readonly contenders: readonly ContenderInfo[];
  /** null when the contenders have no link proxies (they connect straight to an ensemble of another lab). */
  readonly network: ContendersNetwork | null;
  /** What ZooKeeper says of each contender, by id; null when the ensemble could not be asked. */
  readonly zookeeper: ReadonlyMap<string, ZkContenderView> | null;
}

/** Every contender with the network facts and ZooKeeper's view of it, from one read of the lab state (`contenders list`). */
export async function contendersOverview(paths: LabPaths): Promise<ContendersOverview> {
  const state = requireState(paths);
  const contenders = describeContenders(paths, state);
  const sessions = new Map(contenders.map((c) => [c.id, c.sessions] as const));
  const zookeeper = await withObserver(
    directConnectString(state),
    (zk) => readZkView(zk, state.contenders, (id) => sessions.get(id) ?? []),
    3000,
  ).catch(() => null);
  if (upstreams(state).length === 0) return { contenders, network: null, zookeeper };
  const members = new Map(contenders.map((c) => [c.id, memberNetwork(state, c.id)] as const));
  return { contenders, network: { status: await networkStatus(paths, state), members }, zookeeper };
}

export function resolveContender(state: LabState, id: string): ContenderRecord {
  const r = state.contenders.find((c) => c.id === id);
  if (!r) {
    const ids = state.contenders.map((c) => c.id);
    throw new UsageError(
      `there is no contender "${id}" in this lab`,
      ids.length > 0 ? `contenders are ${ids.join(', ')}` : 'spawn some with `zklab contenders spawn 5`',
    );
  }
  return r;
}

/** Stops contenders cleanly (SIGTERM: they close their sessions), waiting for each to exit. */
export async function stopContenders(paths: LabPaths, ids: readonly string[] | 'all'): Promise<string[]> {
  const state = requireState(paths);
  const running = (c: ContenderRecord) => isOurs(c.pid, paths.markers) || labNode(paths, c.id, state).pids().length > 0;
  const targets = ids === 'all' ? state.contenders : ids.map((id) => resolveContender(state, id));
  const live = targets.filter(running);
  const signalledAt = Date.now();
  // A frozen node cannot act on SIGTERM: thawed first, its program closes its session; then the rest of the node goes.
  for (const c of live) labNode(paths, c.id, state).thaw();
  if (state.hosts) await (await onHosts()).terminateOnHosts(paths, state, live);
  await stopProcesses(
    live.filter((c) => isOurs(c.pid, paths.markers)).map((c) => c.pid!),
    'SIGTERM',
    5000,
  );
  await killNodes(
    paths,
    state,
    live.map((c) => c.id),
  );
  await withLabLock(paths, async () => {
    const fresh = requireState(paths);
    for (const c of fresh.contenders) if (live.some((l) => l.id === c.id)) c.stoppedAt = Date.now();
    // The stopped ones, and any the link daemon has not forgotten yet: it does so by itself when a contender dies.
    await forgetGoneContenderLinks(paths, fresh);
    writeState(paths, fresh);
  });
  for (const c of live) recordLabEvent(paths, 'contender-stopped', { contender: c.id, signalledAt });
  return live.map((c) => c.id);
}
