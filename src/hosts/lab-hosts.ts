import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { netPrefix, netTable } from '../lab/node/net.js';
import { LabPaths } from '../lab/paths.js';
import type { ContenderRecord, LabHost, LabState } from '../lab/state.js';
import { isOurs } from '../lab/node/procs.js';
import { CGROUP2_ROOT, LEAVE_TOP, remoteLabGroup, sshHost } from './remote-node.js';
import type { HostUnreachable } from './ssh.js';
import { EnvironmentError } from '../errors.js';

/** The lab's directory on its hosts: one per lab (a hash of its root), under one directory of zklab's. */
export const HOSTS_DIR = '/srv/zklab';
export const remoteLabDir = (paths: LabPaths): string => join(HOSTS_DIR, netPrefix(paths));

/** The lab's files as its hosts see them: the same layout as here, under the lab's directory there. */
export const remotePaths = (state: LabState): LabPaths => new LabPaths(state.hosts!.dir);

/** The hosts the lab's nodes use, each once. */
export function usedHosts(state: LabState): LabHost[] {
  const used = new Set(Object.values(state.hosts?.place ?? {}));
  return (state.hosts?.hosts ?? []).filter((h) => used.has(h.name));
}

/**
 * Sends files of the lab (paths relative to its root here) to a host, into the lab's directory there, as one tar
 * stream on ssh's stdin: modes kept (the configs are the lab's owner's alone), nothing else of the host touched.
 * `from` and `into` send files of another directory here into another directory of the lab's there.
 */
export async function uploadToHost(
  paths: LabPaths,
  state: LabState,
  host: LabHost,
  files: readonly string[],
  where: { readonly from?: string; readonly into?: string } = {},
): Promise<void> {
  const tar = spawnSync('tar', ['-c', '-C', where.from ?? paths.root, '--', ...files], {
    maxBuffer: 64 * 1024 * 1024,
  });
  if (tar.status !== 0) throw new Error(`tar of the lab's files failed: ${String(tar.stderr).trim()}`);
  const dir = where.into ?? state.hosts!.dir;
  const r = await sshHost(paths, state, host).run(
    ['sh', '-c', 'umask 077 && mkdir -p "$1" && tar -x -p -C "$1"', 'zklab-upload', dir],
    { input: tar.stdout },
  );
  if (r.code !== 0) throw new Error(`upload to ${host.name} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
}

/** Removes what the lab made on a host: its nftables table, its control groups (ending what they hold), its files. */
const CLEAN = `table=$1; group=$2; dir=$3; top=$4
nft delete table inet "$table" 2>/dev/null
${CGROUP2_ROOT}
if [ -n "$base" ] && [ -d "$base/$group" ]; then
  for g in "$base/$group"/*/; do [ -f "$g/cgroup.kill" ] && echo 1 > "$g/cgroup.kill"; done
  i=0; while [ $i -lt 100 ]; do
    left=0; for g in "$base/$group"/*/; do [ -d "$g" ] && ! rmdir "$g" 2>/dev/null && left=1; done
    [ $left = 0 ] && break; sleep 0.05; i=$((i+1))
  done
  rmdir "$base/$group" 2>/dev/null
fi
rm -rf -- "$dir"
${LEAVE_TOP}
exit 0`;

/**
 * Leaves nothing of the lab on its hosts. Every host is tried; those that cannot be reached are returned (each with
 * ssh's reason), so `down` can say which still hold something.
 */
export async function cleanHosts(paths: LabPaths, state: LabState): Promise<{ host: string; why: string }[]> {
  const failed: { host: string; why: string }[] = [];
  await Promise.all(
    usedHosts(state).map(async (h) => {
      try {
        await sshHost(paths, state, h).run([
          'sh',
          '-c',
          CLEAN,
          'zklab-clean',
          netTable(paths),
          remoteLabGroup(paths),
          state.hosts!.dir,
          HOSTS_DIR,
        ]);
      } catch (e) {
        failed.push({ host: h.name, why: (e as HostUnreachable).message });
      }
    }),
  );
  return failed;
}

/**
 * The TCP ports something listens on, on any of the lab's hosts (over their masters): a lab's servers listen there,
 * so its block of ports must be free there (another lab's servers on the same hosts), not only here.
 */
export async function portsInUse(paths: LabPaths, state: LabState): Promise<Set<number>> {
  const lists = await Promise.all(
    usedHosts(state).map(async (h) => {
      const r = await sshHost(paths, state, h).run(['cat', '/proc/net/tcp', '/proc/net/tcp6']);
      return r.code === 0 ? listeningPorts(r.stdout) : [];
    }),
  );
  return new Set(lists.flat());
}

/** The ports a lab chose are in use on its hosts: `busy` is every port in use there, to choose again from. */
export class PortsInUseOnHosts extends EnvironmentError {
  constructor(
    readonly taken: readonly number[],
    readonly busy: ReadonlySet<number>,
  ) {
    super(
      `port ${taken.join(', ')} is already in use on the lab's hosts`,
      'choose another --base-port, or omit it and zklab picks a block free there',
    );
  }
}

/** The local ports in LISTEN state (0A) in the text of /proc/net/tcp and tcp6. */
export function listeningPorts(text: string): number[] {
  return text.split('\n').flatMap((line) => {
    const f = line.trim().split(/\s+/);
    const port = /:([0-9A-F]{4})$/.exec(f[1] ?? '')?.[1];
    return f[3] === '0A' && port ? [Number.parseInt(port, 16)] : [];
  });
}

/** The contenders of a lab on hosts that run now: their places count, and the faults must tell them apart. */
export const runningContenders = (paths: LabPaths, state: LabState): ContenderRecord[] =>
  state.contenders.filter((c) => c.stoppedAt === undefined && isOurs(c.pid, paths.markers));
