import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { LabPaths } from '../lab/paths.js';
import { hostOf, type LabHost, type LabState } from '../lab/state.js';
import { uploadToHost } from './lab-hosts.js';
import { sshHost } from './remote-node.js';

/**
 * What a node starts with (its environment, from the fault kinds: the clock shim preloaded, its clock file) as its
 * host must see it. A path of the lab here is the lab's there (the same layout under its directory on the host),
 * sent with the node's files; another file of this machine (the clock shim, built into this machine's cache) is
 * sent to the lab's `lib` directory there. Anything else passes as it is.
 */
export interface RemoteEnv {
  readonly env: Readonly<Record<string, string>>;
  /** Files of the lab, relative to its root, to send before the node starts. */
  readonly labFiles: readonly string[];
  /** Other files of this machine, to send into the lab's `lib` directory on the host. */
  readonly files: readonly string[];
}

const libDir = (state: LabState): string => join(state.hosts!.dir, 'lib');

export function remoteEnv(paths: LabPaths, state: LabState, env: Readonly<Record<string, string>>): RemoteEnv {
  const labFiles: string[] = [];
  const files: string[] = [];
  const there = (value: string): string =>
    value
      .split(':')
      .map((p) => {
        if (!isAbsolute(p) || !existsSync(p)) return p;
        const rel = relative(paths.root, p);
        if (!rel.startsWith('..')) {
          labFiles.push(rel);
          return remoteFileOf(paths, state, p);
        }
        files.push(p);
        return join(libDir(state), basename(p));
      })
      .join(':');
  return { env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, there(v)])), labFiles, files };
}

/** `env K=V … ` before a node's program on its host (nothing when it has no environment of its own). */
export const envArgv = (r: RemoteEnv): string[] =>
  Object.keys(r.env).length === 0 ? [] : ['env', ...Object.entries(r.env).map(([k, v]) => `${k}=${v}`)];

/** Sends what the node's environment names to its host. */
export async function sendNodeFiles(paths: LabPaths, state: LabState, host: LabHost, r: RemoteEnv): Promise<void> {
  if (r.labFiles.length > 0) await uploadToHost(paths, state, host, r.labFiles);
  for (const file of new Set(r.files))
    await uploadToHost(paths, state, host, [basename(file)], { from: dirname(file), into: libDir(state) });
}

/** The lab's file `local` (a path here) as the node's host has it. */
export const remoteFileOf = (paths: LabPaths, state: LabState, local: string): string =>
  join(state.hosts!.dir, relative(paths.root, local));

/**
 * Writes parts of a file of the lab on a node's host, in place and in order, each at its offset (the file's size
 * unchanged, so what a process there mapped sees each write): how a node's clock file changes there (a seqlock: odd,
 * the body, even).
 */
export async function writeInPlace(
  paths: LabPaths,
  state: LabState,
  node: string,
  local: string,
  parts: readonly { readonly offset: number; readonly bytes: Buffer }[],
): Promise<void> {
  const host = hostOf(state, node);
  if (!host) throw new Error(`${node} has no host in the lab's placement`);
  const args = parts.flatMap((p) => [String(p.offset), String(p.bytes.length)]);
  const r = await sshHost(paths, state, host).run(
    ['sh', '-c', WRITE_PARTS, 'zklab-write', remoteFileOf(paths, state, local), ...args],
    { input: Buffer.concat(parts.map((p) => p.bytes)) },
  );
  if (r.code !== 0) throw new Error(`writing ${local} on ${host.name} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
}

/** $1 the file, then offset and length pairs: each part read from stdin and written there, in order. */
const WRITE_PARTS = `f=$1; shift
[ -f "$f" ] || { echo "no such file: $f" >&2; exit 4; }
while [ $# -ge 2 ]; do
  dd of="$f" bs=1 seek="$1" count="$2" conv=notrunc status=none iflag=fullblock || exit 5
  shift 2
done`;
