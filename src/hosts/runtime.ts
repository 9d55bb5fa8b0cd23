import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { type EntryPoint, entryPoint } from '../entry-points.js';
import type { LabPaths } from '../lab/paths.js';
import type { LabHost, LabState } from '../lab/state.js';
import { PACKAGE_ROOT } from '../templates.js';
import { RUNTIME_CACHE, sshHost } from './remote-node.js';

/**
 * zklab's own programs on a host (its contenders, the supervisor of a program run as one) run on this machine's
 * Node and build, sent over SSH into the lab's directory there: a host's packaged Node may be older than zklab needs
 * (Debian 12's is 18), and the native ZooKeeper client is built for this Node and this architecture (`zklab hosts
 * check` says whether the host's matches). Sent once per build and host, shared by the labs there (shipRuntime).
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

/**
 * Sends Node and zklab's build to a host, once per build: into the runtime the labs on that host share
 * (`/srv/zklab/.runtime/<build>`, which goes with the last lab there), linked from the lab's own directory. A lab
 * that comes while another is on the host only links it. Sent under a name of its own and renamed when whole, so two
 * labs sending at once never mix their files, and a lab never links half a runtime.
 */
export async function shipRuntime(paths: LabPaths, state: LabState, host: LabHost): Promise<void> {
  const ssh = sshHost(paths, state, host);
  const rt = hostRuntime(state);
  const want = stamp();
  const cache = join(
    dirname(state.hosts!.dir),
    RUNTIME_CACHE,
    createHash('sha256').update(want).digest('hex').slice(0, 16),
  );
  const link = (from: string) => ssh.run(['sh', '-c', LINK, 'zklab-runtime', from, cache, rt.dir]);
  if ((await link('')).code === 0) return;
  const temp = `${cache}.${process.pid}.${Date.now().toString(36)}`;
  const prepare = await ssh.run(['sh', '-c', 'umask 077 && mkdir -p "$1/zklab"', 'zklab-runtime', temp]);
  if (prepare.code !== 0) throw new Error(`runtime on ${host.name}: ${prepare.stderr.trim()}`);
  try {
    const tar = spawn('tar', ['-c', '-C', PACKAGE_ROOT, '--', ...runtimeFiles()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    tar.stderr.on('data', (d: Buffer) => (said += d.toString()));
    const tarred = new Promise<number | null>((resolve) => tar.once('close', resolve));
    // Slow links get time by the size: 150 MB at 1 MB/s, at least.
    const timeoutMs = 10 * 60_000;
    const [node, pkg, stamped] = await Promise.all([
      ssh.run(['sh', '-c', 'cat > "$1" && chmod 700 "$1"', 'zklab-runtime', join(temp, 'node')], {
        input: createReadStream(process.execPath),
        timeoutMs,
      }),
      ssh.run(['tar', '-x', '-C', join(temp, 'zklab')], { input: tar.stdout, timeoutMs }),
      ssh.run(['sh', '-c', 'cat > "$1"', 'zklab-runtime', join(temp, 'stamp')], { input: want }),
    ]);
    // GNU tar writes an archive without a file it could not read, and says so only by its status.
    const code = await tarred;
    if (code !== 0) throw new Error(`tar of zklab's build failed here: ${said.trim() || `exit ${code}`}`);
    for (const r of [node, pkg, stamped])
      if (r.code !== 0) throw new Error(`sending zklab's runtime to ${host.name} failed: ${r.stderr.trim()}`);
  } catch (e) {
    await ssh.run(['rm', '-rf', '--', temp]).catch(() => undefined);
    throw e;
  }
  const done = await link(temp);
  if (done.code !== 0) throw new Error(`runtime on ${host.name}: ${done.stderr.trim() || `exit ${done.code}`}`);
}

/**
 * $1 a runtime just sent (or empty), $2 the shared one, $3 the lab's link to it. The lab's own directory is made
 * first, so a lab leaving the host (LEAVE_TOP, under the same lock) keeps the runtime. The one just sent becomes the
 * shared one unless another lab's got there first (then it goes); the lab links the shared one when it is whole
 * (exit 3: there is none yet).
 */
const LINK = `umask 077
mkdir -p "\${3%/*}" || exit 4
exec flock "\${2%/*/*}" sh -c '
if [ -n "$1" ]; then mv -T "$1" "$2" 2>/dev/null || rm -rf -- "$1"; fi
[ -f "$2/stamp" ] || exit 3
ln -sfn "$2" "$3"' zklab-link "$1" "$2" "$3"`;
