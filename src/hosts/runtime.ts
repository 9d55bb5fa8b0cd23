import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { type EntryPoint, entryPoint } from '../entry-points.js';
import type { LabPaths } from '../lab/paths.js';
import type { LabHost, LabState } from '../lab/state.js';
import { PACKAGE_ROOT } from '../templates.js';
import { sshHost } from './remote-node.js';

/**
 * zklab's own programs on a host (its contenders, the supervisor of a program run as one) run on this machine's
 * Node and build, sent over SSH into the lab's directory there: a host's packaged Node may be older than zklab needs
 * (Debian 12's is 18), and the native ZooKeeper client is built for this Node and this architecture (`zklab hosts
 * check` says whether the host's matches). Sent once per lab and host; `down` removes it with the lab's files.
 */
export interface HostRuntime {
  readonly dir: string;
  readonly node: string;
  entry(name: EntryPoint): string;
}

export function hostRuntime(state: LabState): HostRuntime {
  const dir = join(state.hosts!.dir, 'runtime');
  return {
    dir,
    node: join(dir, 'node'),
    entry: (name) => join(dir, 'zklab', relative(PACKAGE_ROOT, entryPoint(name))),
  };
}

/**
 * The package's files a program of zklab needs at run time, relative to the package's root: its manifest, its
 * build, and the packages its dependencies need in turn (each resolved as Node would, from where it is required).
 */
export function runtimeFiles(root = PACKAGE_ROOT): string[] {
  const found = new Set<string>();
  const queue: { from: string; deps: string[] }[] = [{ from: root, deps: depsOf(root) }];
  while (queue.length > 0) {
    const { from, deps } = queue.shift()!;
    for (const dep of deps) {
      const dir = resolvePackage(root, from, dep);
      if (dir === undefined || found.has(dir)) continue;
      found.add(dir);
      queue.push({ from: dir, deps: depsOf(dir) });
    }
  }
  // A package nested in another's node_modules comes with its parent.
  const dirs = [...found].map((d) => relative(root, d)).sort();
  const top = dirs.filter((d) => !dirs.some((p) => p !== d && d.startsWith(`${p}/`)));
  return ['package.json', 'dist', ...top];
}

function depsOf(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
}

function resolvePackage(root: string, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/** What the runtime on a host was made from: this Node and this build. */
function stamp(): string {
  return `${process.version} ${process.arch} ${statSync(entryPoint('contenders/child')).mtimeMs}\n`;
}

/** Sends Node and zklab's build to a host, unless the lab's directory there has them from this very build. */
export async function shipRuntime(paths: LabPaths, state: LabState, host: LabHost): Promise<void> {
  const ssh = sshHost(paths, state, host);
  const rt = hostRuntime(state);
  const want = stamp();
  const have = await ssh.run(['cat', join(rt.dir, 'stamp')]);
  if (have.code === 0 && have.stdout === want) return;
  const prepare = await ssh.run([
    'sh',
    '-c',
    'umask 077 && rm -rf "$1" && mkdir -p "$1/zklab"',
    'zklab-runtime',
    rt.dir,
  ]);
  if (prepare.code !== 0) throw new Error(`runtime on ${host.name}: ${prepare.stderr.trim()}`);
  const tar = spawn('tar', ['-c', '-C', PACKAGE_ROOT, '--', ...runtimeFiles()], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [node, pkg] = await Promise.all([
    ssh.run(['sh', '-c', 'cat > "$1" && chmod 700 "$1"', 'zklab-runtime', rt.node], {
      input: createReadStream(process.execPath),
    }),
    ssh.run(['tar', '-x', '-C', join(rt.dir, 'zklab')], { input: tar.stdout }),
  ]);
  for (const r of [node, pkg])
    if (r.code !== 0) throw new Error(`sending zklab's runtime to ${host.name} failed: ${r.stderr.trim()}`);
  const done = await ssh.run(['sh', '-c', 'cat > "$1"', 'zklab-runtime', join(rt.dir, 'stamp')], { input: want });
  if (done.code !== 0) throw new Error(`runtime on ${host.name}: ${done.stderr.trim()}`);
}
