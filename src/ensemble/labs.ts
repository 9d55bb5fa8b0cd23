import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { clearLab } from '../lab/clear.js';
import { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import { labProcesses } from '../lab/nodes.js';
import { holdsLab } from '../lab/in-use.js';
import {
  currentBootId,
  readEntry,
  readRegistry,
  stillRuns,
  type LabKind,
  type RegistryEntry,
} from '../lab/registry.js';
import { readStateIfAny } from '../lab/state.js';
import { ensembleDown } from './service.js';

/**
 * Every lab on this machine, from the registry, each checked against the machine: running (something of it
 * runs), down (a long-lived lab with nothing running), orphan (its owner is gone but processes of it run), stale
 * (its owner or its directory is gone, or the machine rebooted, and nothing of it runs).
 */
export type LabStatus = 'running' | 'down' | 'orphan' | 'stale';

export interface LabListing {
  readonly root: string;
  readonly kind: LabKind;
  readonly command: string;
  readonly status: LabStatus;
  /** Why it is orphan or stale. */
  readonly reason: string | null;
  readonly owner: { readonly pid: number; readonly alive: boolean } | null;
  readonly servers: { readonly running: number; readonly total: number };
  readonly contenders: { readonly running: number; readonly total: number };
  readonly clientPorts: readonly number[];
  readonly processes: number;
  readonly ageMs: number;
}

function judge(e: RegistryEntry, processes: number): { status: LabStatus; reason: string | null } {
  const thisBoot = e.bootId === currentBootId();
  // A live owner answers for its lab, even before the lab's directory exists.
  if (thisBoot && e.kind === 'owned' && stillRuns(e.owner))
    return { status: processes > 0 ? 'running' : 'down', reason: null };
  const gone = !thisBoot
    ? 'it was made before the machine last started'
    : !existsSync(e.root)
      ? 'its directory is gone'
      : e.kind === 'owned'
        ? `its owner (pid ${e.owner?.pid ?? '?'}) is gone`
        : null;
  if (gone === null) return { status: processes > 0 ? 'running' : 'down', reason: null };
  return processes > 0 && thisBoot ? { status: 'orphan', reason: gone } : { status: 'stale', reason: gone };
}

/** The owner made the directory and is gone: clearing the lab removes it. */
const removable = (e: RegistryEntry): boolean => e.kind === 'owned' && e.temporary === true && !stillRuns(e.owner);

export function describeLab(e: RegistryEntry, now = Date.now()): LabListing {
  const paths = new LabPaths(e.root);
  const state = readStateIfAny(paths);
  const processes = e.bootId === currentBootId() ? labProcesses(paths, state).length : 0;
  const servers = state?.servers ?? [];
  const contenders = state?.contenders ?? [];
  return {
    root: e.root,
    kind: e.kind,
    command: e.command,
    ...judge(e, processes),
    owner: e.owner ? { pid: e.owner.pid, alive: stillRuns(e.owner) } : null,
    servers: { running: servers.filter((s) => isOurs(s.pid, paths.markers)).length, total: servers.length },
    contenders: { running: contenders.filter((c) => isOurs(c.pid, paths.markers)).length, total: contenders.length },
    clientPorts: servers.map((s) => s.clientPort),
    processes,
    ageMs: Math.max(0, now - Date.parse(e.createdAt)),
  };
}

export function listLabs(): LabListing[] {
  return readRegistry().map((e) => describeLab(e));
}

/** Clears every orphan and stale lab: its processes stopped, a temporary directory removed, its entry forgotten. */
export async function pruneLabs(): Promise<LabListing[]> {
  const pruned: LabListing[] = [];
  for (const e of readRegistry()) {
    const l = describeLab(e);
    if (l.status !== 'orphan' && l.status !== 'stale') continue;
    await clearLab(new LabPaths(e.root), { removeDir: removable(e) });
    pruned.push(l);
  }
  return pruned;
}

/**
 * Stops one lab (a directory the registry lists, or one holding a lab) or every listed lab; says, for each, how many
 * of its processes were running and are stopped now.
 */
export async function labsDown(target: string): Promise<{ readonly root: string; readonly stopped: number }[]> {
  const roots = target === 'all' ? readRegistry().map((e) => e.root) : [resolveLab(target)];
  const out: { root: string; stopped: number }[] = [];
  for (const root of roots) {
    const paths = new LabPaths(root);
    const e = readEntry(root);
    let stopped = 0;
    if (e?.kind === 'owned') stopped = await clearLab(paths, { removeDir: removable(e) });
    else {
      if (existsSync(paths.stateFile)) stopped = (await ensembleDown(paths)).stopped;
      stopped += await clearLab(paths, { removeDir: false });
    }
    out.push({ root, stopped });
  }
  return out;
}

function resolveLab(dir: string): string {
  const root = new LabPaths(dir).root;
  if (readEntry(root) || holdsLab(new LabPaths(root))) return root;
  throw new UsageError(`${root} is not a lab`, 'name a directory `zklab labs` lists, or `all`');
}
