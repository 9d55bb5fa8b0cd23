import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError, ProcessError, UsageError } from '../errors.js';
import { probeSrvr } from '../ensemble/fourlw.js';
import { isServing } from '../ensemble/quorum.js';
import { tailFile } from '../lab/fs.js';
import { recordLabEvent } from '../lab/event-log.js';
import { registerLongLived } from '../lab/registry.js';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, isStopped, spawnDetached, stopProcesses } from '../lab/procs.js';
import { directConnectString, emptyState, readState, requireState, writeState, type ContenderRecord, type LabState } from '../lab/state.js';
import { PACKAGE_ROOT } from '../templates.js';
import { encodeChildConfig, type ChildConfig } from './child-config.js';
import { readEventFile } from '../lab/event-log.js';
import type { SpawnRequest } from './options.js';
import { summarizeEvents, withProcessFacts, type ContenderSummary } from './summary.js';
import { ensureDir } from '../lab/fs.js';
import { contenderConnect, forgetGoneContenderLinks } from '../net/lab-network.js';
import { memberNetwork, networkStatus, type MemberNetwork, type NetworkStatus } from '../net/status.js';

export const CHILD_ENTRY = join(PACKAGE_ROOT, 'dist', 'contenders', 'child.js');

export interface ContenderInfo extends ContenderSummary {
  readonly id: string;
  readonly pid: number | null;
  readonly alive: boolean;
  readonly recipe: string;
  readonly path: string;
  readonly priority: number | null;
  readonly site: string | null;
}

/** Where a contender connects; by default its own link proxies, one per server of the lab's ensemble. */
export type ConnectStringFor = (id: string, state: LabState) => Promise<string> | string;

async function ensureReachable(state: LabState): Promise<void> {
  if (state.servers.length === 0) return;
  const probes = await Promise.all(state.servers.map((s) => probeSrvr(s.clientPort, 800)));
  if (!probes.some((p) => isServing(p.mode))) {
    throw new UsageError('no server of the lab\'s ensemble is serving', 'start it with `zklab ensemble up` (or use --connect HOST:PORT for another ensemble)');
  }
}

function launchContender(paths: LabPaths, cfg: ChildConfig): number {
  const args = ['--max-old-space-size=64', CHILD_ENTRY, paths.nodeMarker, `--id=${cfg.id}`, encodeChildConfig(cfg)];
  const child = spawnDetached(process.execPath, args, paths.contenderLog(cfg.id));
  if (child.pid === undefined) throw new ProcessError(`could not start contender ${cfg.id}`);
  return child.pid;
}

/** Waits until every contender has logged `joined`; fails naming the first one that died, with its log. */
async function waitJoined(paths: LabPaths, records: readonly ContenderRecord[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...records];
  while (waiting.length > 0) {
    signal?.throwIfAborted();
    for (const r of waiting) {
      if (!isOurs(r.pid, paths.markers)) {
        throw new ProcessError(`contender ${r.id} exited while joining; the end of its log:\n${tailFile(paths.contenderLog(r.id))}`, `see \`zklab logs ${r.id}\``);
      }
    }
    waiting = waiting.filter((r) => !readEventFile(paths.contenderEvents(r.id)).some((e) => e.event === 'joined'));
    if (waiting.length === 0) return;
    if (Date.now() > deadline) {
      throw new ProcessError(`contenders ${waiting.map((r) => r.id).join(', ')} did not join within ${Math.round(timeoutMs / 1000)} s`, 'check `zklab ensemble status` and `zklab logs ' + waiting[0]!.id + '`');
    }
    await sleep(25);
  }
}

export interface SpawnResult {
  /** The contenders this call started. */
  readonly spawned: readonly ContenderInfo[];
  /** Every contender of the lab, the new ones included, as `listContenders` would return them. */
  readonly all: readonly ContenderInfo[];
}

export async function spawnContenders(paths: LabPaths, req: SpawnRequest, opts: { signal?: AbortSignal; connectFor?: ConnectStringFor } = {}): Promise<SpawnResult> {
  if (!existsSync(CHILD_ENTRY)) throw new EnvironmentError(`the contender program ${CHILD_ENTRY} is missing`, 'build zklab first: `npm run build`');
  const existing = readState(paths);
  if (!req.connect && (!existing || existing.servers.length === 0)) {
    throw new UsageError(`there is no ensemble in ${paths.root} to contend on`, 'start one with `zklab ensemble up`, or point at another with --connect HOST:PORT,…');
  }
  if (existing && !req.connect) await ensureReachable(existing);
  ensureDir(paths.root);
  registerLongLived(paths, 'contenders spawn');
  const records = await withLabLock(paths, async () => {
    const state = readState(paths) ?? emptyState();
    if (req.connect) state.externalConnect = req.connect;
    const created: ContenderRecord[] = [];
    for (let i = 0; i < req.count; i++) {
      const id = `c${state.nextContender++}`;
      const rec: ContenderRecord = { id, recipe: req.recipe, path: req.path, priority: req.priorities?.[i], site: req.sites?.[i], sessionTimeoutMs: req.sessionTimeoutMs, startedAt: Date.now() };
      const connectFor = opts.connectFor ?? ((cid: string, st: LabState) => (st.servers.length > 0 ? contenderConnect(paths, cid, st) : directConnectString(st)));
      const connect = req.connect ?? (await connectFor(id, state));
      rec.pid = launchContender(paths, {
        id,
        recipe: req.recipe,
        path: req.path,
        sessionTimeoutMs: req.sessionTimeoutMs,
        onDisconnect: req.onDisconnect,
        priority: rec.priority,
        site: rec.site,
        policy: req.policy,
        takeoverMs: req.takeoverMs,
        labRoot: paths.root,
        connect,
        eventsFile: paths.contenderEvents(id),
        memberData: JSON.stringify({ id, recipe: req.recipe, priority: rec.priority ?? null, site: rec.site ?? null }),
      });
      state.contenders.push(rec);
      created.push(rec);
    }
    writeState(paths, state);
    return created;
  });
  recordLabEvent(paths, 'contenders-spawned', { contenders: records.map((r) => r.id), recipe: req.recipe });
  try {
    await waitJoined(paths, records, Math.max(20_000, req.count * 300), opts.signal);
  } catch (e) {
    await stopProcesses(records.map((r) => r.pid!).filter(Boolean), 'SIGKILL');
    throw e;
  }
  const all = listContenders(paths);
  return { spawned: all.filter((c) => records.some((r) => r.id === c.id)), all };
}

export function describeContender(paths: LabPaths, r: ContenderRecord): ContenderInfo {
  const alive = isOurs(r.pid, paths.markers);
  const frozen = alive && isStopped(r.pid!);
  const summary = withProcessFacts(summarizeEvents(readEventFile(paths.contenderEvents(r.id))), alive, frozen);
  return { ...summary, id: r.id, pid: r.pid ?? null, alive, recipe: r.recipe, path: r.path, priority: r.priority ?? null, site: r.site ?? null };
}

export function listContenders(paths: LabPaths): ContenderInfo[] {
  return describeContenders(paths, requireState(paths));
}

function describeContenders(paths: LabPaths, state: LabState): ContenderInfo[] {
  return state.contenders.map((r) => describeContender(paths, r));
}

/** The lab network as contenders see it. */
export interface ContendersNetwork {
  readonly status: NetworkStatus;
  /** What the network does to each contender, by id. */
  readonly members: ReadonlyMap<string, MemberNetwork>;
}

export interface ContendersOverview {
  readonly contenders: readonly ContenderInfo[];
  /** null for contenders of an ensemble outside the lab (no link proxies). */
  readonly network: ContendersNetwork | null;
}

/** Every contender with the network facts about it, from one read of the lab state (what `contenders list` shows). */
export async function contendersOverview(paths: LabPaths): Promise<ContendersOverview> {
  const state = requireState(paths);
  const contenders = describeContenders(paths, state);
  if (state.servers.length === 0) return { contenders, network: null };
  const members = new Map(contenders.map((c) => [c.id, memberNetwork(state, c.id)] as const));
  return { contenders, network: { status: await networkStatus(paths, state), members } };
}

export function resolveContender(state: LabState, id: string): ContenderRecord {
  const r = state.contenders.find((c) => c.id === id);
  if (!r) {
    const ids = state.contenders.map((c) => c.id);
    throw new UsageError(`there is no contender "${id}" in this lab`, ids.length > 0 ? `contenders are ${ids.join(', ')}` : 'spawn some with `zklab contenders spawn 5`');
  }
  return r;
}

/** Stops contenders cleanly (SIGTERM: they close their sessions), waiting for each to exit. */
export async function stopContenders(paths: LabPaths, ids: readonly string[] | 'all'): Promise<string[]> {
  const state = requireState(paths);
  const targets = ids === 'all' ? state.contenders.filter((c) => isOurs(c.pid, paths.markers)) : ids.map((id) => resolveContender(state, id));
  const live = targets.filter((c) => isOurs(c.pid, paths.markers));
  await stopProcesses(live.map((c) => c.pid!), 'SIGTERM', 5000);
  await withLabLock(paths, async () => {
    const fresh = requireState(paths);
    for (const c of fresh.contenders) if (live.some((l) => l.id === c.id)) c.stoppedAt = Date.now();
    // The stopped ones, and any the link daemon has not forgotten yet: it does so by itself when a contender dies.
    await forgetGoneContenderLinks(paths, fresh);
    writeState(paths, fresh);
  });
  for (const c of live) recordLabEvent(paths, 'contender-stopped', { contender: c.id });
  return live.map((c) => c.id);
}
