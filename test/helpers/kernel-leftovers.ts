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

/**
 * What appeared since `before` and is still there, less what belongs to a lab of the developer's own (listed in
 * `ownRegistry`, which a developer may have started while the suite ran).
 */
export function leftSince(before: readonly string[], ownRegistry: string): string[] {
  const own = registeredRoots(ownRegistry);
  const seen = new Set(before);
  return labKernelObjects().filter((l) => !seen.has(l) && !own.some((r) => belongsTo(l, r)));
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
