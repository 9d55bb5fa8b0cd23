import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Containment, containment, NODE_ENV } from './containment.js';
import type { LabPaths } from '../paths.js';
import { environOf, isStopped, processState } from './procs.js';

/**
 * A node: a contender or a server with every process it starts, however it detaches. Kill and freeze act on all of
 * it at once; `pids` is what it holds now. See containment.ts for how each mechanism holds it.
 */
export interface NodeGroup {
  readonly name: string;
  /** Makes its control group (nothing to do with markers). */
  create(): void;
  /** The file a process writes its own pid to, to enter the node (undefined: markers, nothing to enter). */
  readonly entryFile: string | undefined;
  /** Every live process of the node. */
  pids(): number[];
  /** SIGKILL to all of it; resolves once none is left (or the time is up: what is left is returned). */
  kill(timeoutMs?: number): Promise<number[]>;
  /** Stops every process of it; resolves once all are stopped. */
  freeze(timeoutMs?: number, abort?: AbortSignal): Promise<void>;
  thaw(): void;
  frozen(): boolean;
  /**
   * Removes its control group once it is empty, trying again for up to `waitMs` while a killed process is still
   * listed (default: a few seconds; 0 tries once, for a fault that must not wait).
   */
  remove(waitMs?: number): Promise<void>;
}

const POLL_MS = 5;
/** A kill is waited for closely: its callers (a fault, a stop) go on the moment the node is gone. */
const KILL_POLL_MS = 1;

/** `ZKLAB_NODE=<lab root>:<node>`: what every process of the node carries in its environment. */
export function nodeEnv(paths: LabPaths, name: string): Record<string, string> {
  return { [NODE_ENV]: `${paths.root}:${name}` };
}

/** The lab's own directory of node cgroups: one per lab, named by a hash of its root. */
export function labGroupsDir(paths: LabPaths, c: Containment = containment()): string {
  const key = createHash('sha256').update(paths.root).digest('hex').slice(0, 16);
  return c.base === '' ? '' : join(c.base, key);
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function write(file: string, value: string): boolean {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** A cgroup directory and the ones below it, deepest first (a program may make cgroups of its own inside). */
function subtree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const below = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => subtree(join(dir, e.name)));
  return [...below, dir];
}

function groupPids(dir: string): number[] {
  return subtree(dir).flatMap((d) => readLines(join(d, 'cgroup.procs')).map(Number));
}

function kill9(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

async function until(test: () => boolean, timeoutMs: number, abort?: AbortSignal, pollMs = POLL_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) return false;
    await sleep(pollMs, undefined, { signal: abort });
  }
  return true;
}

const alive = (pid: number) => {
  const s = processState(pid);
  return s !== undefined && s !== 'Z';
};

/** How long a removal waits for the groups to empty: a killed process may stay listed (below) for seconds. */
const REMOVE_WAIT_MS = 5000;

/**
 * Removes a group and the ones below it. A process killed in it stays listed until it is reaped: the v1 freezer
 * then refuses the removal (EBUSY), and this machine's PID 1 reaps orphans slowly. So it is tried again until the
 * group is gone or `timeoutMs` has passed; what still will not go is left for the next removal.
 */
async function removeTree(dir: string, below = true, timeoutMs = REMOVE_WAIT_MS): Promise<void> {
  await until(() => {
    for (const d of below ? subtree(dir) : [dir]) {
      try {
        rmdirSync(d);
      } catch {
        // busy (a process still listed) or gone
      }
    }
    return !existsSync(dir);
  }, timeoutMs);
}

/** A node held in a control group directory: what both cgroup versions share (entering, making, listing, removing). */
abstract class CgroupNode implements NodeGroup {
  constructor(
    readonly name: string,
    protected readonly dir: string,
  ) {}

  get entryFile(): string {
    return join(this.dir, 'cgroup.procs');
  }

  create(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  pids(): number[] {
    return groupPids(this.dir).filter(alive);
  }

  remove(waitMs = REMOVE_WAIT_MS): Promise<void> {
    return removeTree(this.dir, true, waitMs);
  }

  abstract kill(timeoutMs?: number): Promise<number[]>;
  abstract freeze(timeoutMs?: number, abort?: AbortSignal): Promise<void>;
  abstract thaw(): void;
  abstract frozen(): boolean;
}

class CgroupV2Node extends CgroupNode {
  private populated(): boolean {
    return subtree(this.dir).some((d) => readLines(join(d, 'cgroup.events')).includes('populated 1'));
  }

  async kill(timeoutMs = 5000): Promise<number[]> {
    if (!existsSync(this.dir)) return [];
    // cgroup.kill (Linux 5.14) kills the whole subtree at once, forks in flight included.
    if (!write(join(this.dir, 'cgroup.kill'), '1')) {
      await this.freeze(1000).catch(() => undefined);
      kill9(groupPids(this.dir));
      this.thaw();
    }
    await until(() => !this.populated(), timeoutMs, undefined, KILL_POLL_MS);
    return this.pids();
  }

  async freeze(timeoutMs = 2000, abort?: AbortSignal): Promise<void> {
    write(join(this.dir, 'cgroup.freeze'), '1');
    await until(() => this.frozen() || this.pids().length === 0, timeoutMs, abort);
  }

  thaw(): void {
    for (const d of subtree(this.dir)) write(join(d, 'cgroup.freeze'), '0');
  }

  frozen(): boolean {
    return readLines(join(this.dir, 'cgroup.events')).includes('frozen 1');
  }
}

class CgroupV1Node extends CgroupNode {
  async kill(timeoutMs = 5000): Promise<number[]> {
    if (!existsSync(this.dir)) return [];
    // Frozen, nothing can fork while it is killed; thawed, the kills land.
    await this.freeze(1000).catch(() => undefined);
    kill9(groupPids(this.dir));
    this.thaw();
    await until(() => this.pids().length === 0, timeoutMs, undefined, KILL_POLL_MS);
    return this.pids();
  }

  async freeze(timeoutMs = 2000, abort?: AbortSignal): Promise<void> {
    write(join(this.dir, 'freezer.state'), 'FROZEN');
    await until(() => this.frozen() || this.pids().length === 0, timeoutMs, abort);
  }

  thaw(): void {
    write(join(this.dir, 'freezer.state'), 'THAWED');
  }

  frozen(): boolean {
    return readLines(join(this.dir, 'freezer.state'))[0] === 'FROZEN';
  }
}

/** Every live process with a ZKLAB_NODE value starting with `prefix`, and that value (one pass over /proc). */
function nodeEnvValues(prefix: string): { pid: number; value: string }[] {
  const wanted = `${NODE_ENV}=${prefix}`;
  const out: { pid: number; value: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const kv = environOf(entry).find((x) => x.startsWith(wanted));
    if (kv && alive(Number(entry))) out.push({ pid: Number(entry), value: kv.slice(NODE_ENV.length + 1) });
  }
  return out;
}

/** Live pids whose environment holds `ZKLAB_NODE=<value>` (or, with `prefix`, a value starting with it). */
export function pidsWithNodeEnv(value: string, prefix = false): number[] {
  return nodeEnvValues(value)
    .filter((p) => prefix || p.value === value)
    .map((p) => p.pid);
}

class MarkerNode implements NodeGroup {
  constructor(
    readonly name: string,
    private readonly value: string,
  ) {}

  readonly entryFile = undefined;

  create(): void {}

  pids(): number[] {
    return pidsWithNodeEnv(this.value);
  }

  async kill(timeoutMs = 5000): Promise<number[]> {
    // Again until none is left: a process may fork while the others are killed.
    await until(() => {
      const left = this.pids();
      kill9(left);
      return left.length === 0;
    }, timeoutMs);
    return this.pids();
  }

  async freeze(timeoutMs = 2000, abort?: AbortSignal): Promise<void> {
    await until(
      () => {
        const left = this.pids().filter((p) => !isStopped(p));
        for (const pid of left) {
          try {
            process.kill(pid, 'SIGSTOP');
          } catch {
            // gone
          }
        }
        return left.length === 0;
      },
      timeoutMs,
      abort,
    );
  }

  thaw(): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
  }

  frozen(): boolean {
    const pids = this.pids();
    return pids.length > 0 && pids.every(isStopped);
  }

  async remove(): Promise<void> {}
}

/** The node of the lab named `name` (zk1, c3), held the way this machine allows (or the lab chose). */
export function nodeGroup(paths: LabPaths, name: string, c: Containment = containment()): NodeGroup {
  switch (c.kind) {
    case 'cgroup2':
      return new CgroupV2Node(name, join(labGroupsDir(paths, c), name));
    case 'cgroup1':
      return new CgroupV1Node(name, join(labGroupsDir(paths, c), name));
    case 'marker':
      return new MarkerNode(name, `${paths.root}:${name}`);
  }
}

/** How many live processes each node of the lab holds, by name (nodes with none are left out). One look for all. */
export function nodeSizes(paths: LabPaths, c: Containment = containment()): Map<string, number> {
  const sizes = new Map<string, number>();
  const dir = labGroupsDir(paths, c);
  if (dir !== '' && existsSync(dir)) {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const n = groupPids(join(dir, e.name)).filter(alive).length;
      if (n > 0) sizes.set(e.name, n);
    }
  }
  if (c.kind === 'marker') {
    for (const { value } of nodeEnvValues(`${paths.root}:`)) {
      const name = value.slice(paths.root.length + 1);
      sizes.set(name, (sizes.get(name) ?? 0) + 1);
    }
  }
  return sizes;
}

/**
 * The lab's nodes that have a process left. Under cgroup v2 the kernel keeps that answer (`populated` in each
 * group's cgroup.events, its subtree included): one read per node, where nodeSizes reads every member's state.
 */
export function nodesWithProcesses(paths: LabPaths, c: Containment = containment()): Set<string> {
  if (c.kind !== 'cgroup2') return new Set(nodeSizes(paths, c).keys());
  const dir = labGroupsDir(paths, c);
  const out = new Set<string>();
  if (dir === '' || !existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && readLines(join(dir, e.name, 'cgroup.events')).includes('populated 1')) out.add(e.name);
  }
  return out;
}

/** Every process of every node of the lab: its control groups' members and whatever carries its node marker. */
export function labNodePids(paths: LabPaths, c: Containment = containment()): number[] {
  const dir = labGroupsDir(paths, c);
  const grouped = dir === '' ? [] : groupPids(dir).filter(alive);
  return [...new Set([...grouped, ...pidsWithNodeEnv(`${paths.root}:`, true)])];
}

/**
 * Ends every node of the lab (servers, contenders and all they started) and removes the lab's control groups.
 * Resolves how many processes it ended; what would not die is left (in uninterruptible sleep, or not ours).
 */
export async function killLabNodes(paths: LabPaths, c: Containment = containment()): Promise<number> {
  const before = labNodePids(paths, c);
  const dir = labGroupsDir(paths, c);
  if (dir !== '' && existsSync(dir)) {
    const nodes = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    await Promise.all(nodes.map((e) => nodeGroup(paths, e.name, c).kill()));
  }
  // Strays the groups do not hold (a lab of another containment, or marker nodes): by their environment.
  await until(() => {
    const left = pidsWithNodeEnv(`${paths.root}:`, true);
    kill9(left);
    return left.length === 0;
  }, 5000);
  if (dir !== '') {
    await removeTree(dir);
    // The directory of every lab's groups goes with the last lab (another lab's groups keep it busy).
    await removeTree(c.base, false, 0);
  }
  return before.length;
}
