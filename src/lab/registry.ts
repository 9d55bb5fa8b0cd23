import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureDir } from './fs.js';
import type { LabPaths } from './paths.js';
import { processStartTime } from './node/procs.js';

/**
 * Every lab on this machine for this user, one small JSON file each, in the user's runtime directory
 * ($XDG_RUNTIME_DIR/zklab/labs, else ~/.cache/zklab/labs; ZKLAB_REGISTRY overrides). A file per lab means no two
 * commands ever rewrite one shared file. An entry is a claim, never trusted blindly: `labs` checks the owner's pid
 * against its start time, the lab's processes against their markers, and the boot the entry was written in.
 */
export type LabKind = 'long-lived' | 'owned';

export interface RegistryEntry {
  readonly root: string;
  readonly kind: LabKind;
  /** What made it: `ensemble up`, `drill run leader-dies`, `demo`, a test file. */
  readonly command: string;
  readonly createdAt: string;
  /** owned labs: the process whose death ends the lab, with its start time (pids are reused). */
  readonly owner?: { readonly pid: number; readonly startTime: string };
  /** owned labs: the process that holds the lease and clears the lab when the owner dies. */
  readonly warden?: { readonly pid: number; readonly startTime: string };
  /** owned labs: the owner made the directory, so clearing the lab removes it. */
  readonly temporary?: boolean;
  /** The boot it was written in: after a reboot nothing of it runs, whatever the pids say. */
  readonly bootId: string;
}

export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ZKLAB_REGISTRY) return env.ZKLAB_REGISTRY;
  const base = env.XDG_RUNTIME_DIR && existsSync(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : join(homedir(), '.cache');
  return join(base, 'zklab', 'labs');
}

const entryFile = (root: string, dir = registryDir()): string =>
  join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);

export function currentBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

/** True when the process that was `pid` at `startTime` still runs (not a later process with the same pid). */
export function stillRuns(p: { readonly pid: number; readonly startTime: string } | undefined): boolean {
  return p !== undefined && processStartTime(p.pid) === p.startTime;
}

export function processRef(pid: number): { pid: number; startTime: string } {
  return { pid, startTime: processStartTime(pid) ?? '?' };
}

/** Writes (or replaces) the lab's entry. Registering must never fail a command: the registry is an index. */
export function register(
  paths: LabPaths,
  entry: Omit<RegistryEntry, 'root' | 'createdAt' | 'bootId'> & { createdAt?: string },
): void {
  try {
    const dir = registryDir();
    ensureDir(dir);
    // Entries say which directories may be removed: only this user may write them.
    chmodSync(dir, 0o700);
    const file = entryFile(paths.root, dir);
    const full: RegistryEntry = {
      root: paths.root,
      createdAt: new Date().toISOString(),
      bootId: currentBootId(),
      ...entry,
    };
    writeFileSync(`${file}.tmp${process.pid}`, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp${process.pid}`, file);
  } catch {
    // An unwritable registry leaves the lab working; `labs` just does not see it.
  }
}

/**
 * Registers a long-lived lab. An owned lab whose owner runs stays owned; any other entry (a long-lived one, or
 * one left from a dead owner or an earlier boot) is replaced, so a lab that runs is never listed as stale.
 */
export function registerLongLived(paths: LabPaths, command: string): void {
  const e = readEntry(paths.root);
  if (e?.kind === 'owned' && e.bootId === currentBootId() && stillRuns(e.owner)) return;
  if (e?.kind === 'long-lived' && e.bootId === currentBootId()) return;
  register(paths, { kind: 'long-lived', command });
}

export function deregister(root: string): void {
  rmSync(entryFile(root), { force: true });
}

export function readEntry(root: string): RegistryEntry | undefined {
  return parseEntry(entryFile(root));
}

function parseEntry(file: string): RegistryEntry | undefined {
  try {
    if (typeof process.getuid === 'function' && statSync(file).uid !== process.getuid()) return undefined;
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<RegistryEntry>;
    if (typeof v.root !== 'string' || (v.kind !== 'long-lived' && v.kind !== 'owned')) return undefined;
    return v as RegistryEntry;
  } catch {
    return undefined;
  }
}

/** Every entry, oldest first; unreadable files are left out. */
export function readRegistry(): RegistryEntry[] {
  const dir = registryDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => parseEntry(join(dir, f)))
    .filter((e): e is RegistryEntry => e !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
