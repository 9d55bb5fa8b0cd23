import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { labNetPrefix, linkNames, netnsNames, nftTables } from './kernel-net.js';

/**
 * What zklab's labs leave in the kernel, read from the kernel itself (/sys/fs/cgroup, `ip netns`, `ip link`,
 * `nft list tables`), never from zklab's records: the suite's global teardown fails on whatever appeared during the
 * run and is still there. Names are re-derived here: a lab's control groups sit in `<base>/zklab/<16 hex>` and its
 * network's names carry `zl<8 hex>`, both from the sha256 of the lab's root.
 */

const CGROUP_BASES = ['/sys/fs/cgroup/unified/zklab', '/sys/fs/cgroup/zklab', '/sys/fs/cgroup/freezer/zklab'];
const NET_NAME = /zl[0-9a-f]{8}/;

const sha = (root: string) => createHash('sha256').update(root).digest('hex');

/** Every lab-made object the kernel shows now, as one line each (`cgroup DIR`, `netns N`, `link N`, `nft T`). */
export function labKernelObjects(): string[] {
  const groups = CGROUP_BASES.filter(existsSync).flatMap((base) =>
    readdirSync(base)
      .filter((n) => /^[0-9a-f]{16}$/.test(n) && statSync(join(base, n)).isDirectory())
      .map((n) => `cgroup ${join(base, n)}`),
  );
  const net = (kind: string, names: string[]) => names.filter((n) => NET_NAME.test(n)).map((n) => `${kind} ${n}`);
  return [...groups, ...net('netns', netnsNames()), ...net('link', linkNames()), ...net('nft', nftTables())];
}

/** True when the line names an object of the lab at `root`. */
export function belongsTo(line: string, root: string): boolean {
  return line.startsWith('cgroup ') ? line.endsWith(`/${sha(root).slice(0, 16)}`) : line.includes(labNetPrefix(root));
}

/** Where the developer's own labs are listed (as zklab finds its registry), before a test run points it elsewhere. */
export function ownRegistryDir(): string {
  if (process.env.ZKLAB_REGISTRY) return process.env.ZKLAB_REGISTRY;
  const runtime = process.env.XDG_RUNTIME_DIR;
  return join(runtime && existsSync(runtime) ? runtime : join(homedir(), '.cache'), 'zklab', 'labs');
}

/** The roots of the labs listed in a registry directory, read as plain JSON files. */
export function registeredRoots(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    try {
      const root = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { root?: unknown }).root;
      return typeof root === 'string' ? [root] : [];
    } catch {
      return [];
    }
  });
}

/** Names a lab directory is given inside a test's temporary directory, beside the ones found there. */
const LAB_NAMES = ['lab', 'demo', '.zklab', '.zklab-demo'];

/**
 * Every directory that may have been the root of one of this run's labs: each temporary directory of the run
 * (`prefix`), what is still inside it (two levels), and the names tests give labs in it (a lab that went took its
 * directory with it).
 */
export function runRoots(prefix: string): string[] {
  const slash = prefix.lastIndexOf('/');
  const dir = prefix.slice(0, slash);
  const start = prefix.slice(slash + 1);
  const below = (d: string, depth: number): string[] => {
    if (depth === 0) return [];
    try {
      return readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .flatMap((e) => [join(d, e.name), ...below(join(d, e.name), depth - 1)]);
    } catch {
      return [];
    }
  };
  const temps = readdirSync(dir)
    .filter((n) => n.startsWith(start))
    .map((n) => join(dir, n));
  return [...new Set(temps.flatMap((t) => [t, ...LAB_NAMES.map((n) => join(t, n)), ...below(t, 2)]))];
}

/** Whether another test run is going on (or died) beside this one: its temporary directories are in /tmp. */
export function otherRuns(prefix: string): boolean {
  const mine = prefix.slice(prefix.lastIndexOf('/') + 1);
  return readdirSync('/tmp').some((n) => n.startsWith('zklab-test-') && !n.startsWith(mine));
}

/**
 * What appeared since `before` and is still there and is this run's: what belongs to one of its lab directories
 * (`roots`); and, when no other test run goes on beside it, anything else that appeared too (a lab whose name no
 * directory is left to tell). Never what belongs to a lab of the developer's own (listed in `ownRegistry`).
 */
export function leftSince(
  before: readonly string[],
  ownRegistry: string,
  roots: readonly string[] = [],
  alone = true,
): string[] {
  const own = registeredRoots(ownRegistry);
  const seen = new Set(before);
  return labKernelObjects().filter(
    (l) => !seen.has(l) && !own.some((r) => belongsTo(l, r)) && (alone || roots.some((r) => belongsTo(l, r))),
  );
}

/** Removes what `leftSince` found, best effort, after the suite has reported it: the next run starts clean. */
export function removeLeftovers(lines: readonly string[]): void {
  const quiet = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
    } catch {
      // gone already, or busy: reported anyway
    }
  };
  const deepestFirst = (dir: string): string[] => [
    ...readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => deepestFirst(join(dir, e.name))),
    dir,
  ];
  for (const line of lines) {
    const [kind, ...rest] = line.split(' ');
    const name = rest.join(' ');
    if (kind === 'cgroup' && existsSync(name))
      for (const d of deepestFirst(name))
        try {
          rmdirSync(d);
        } catch {
          // a process still in it: reported anyway
        }
    if (kind === 'netns') quiet('ip', ['netns', 'delete', name]);
    if (kind === 'link') quiet('ip', ['link', 'delete', name]);
    if (kind === 'nft') quiet('nft', ['delete', 'table', ...rest]);
  }
}
