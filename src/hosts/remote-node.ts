import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { nodeEnv } from '../lab/node/group.js';
import { netPrefix, netTable } from '../lab/node/net.js';
import { labNode, spawnInGroup } from '../lab/nodes.js';
import type { LabPaths } from '../lab/paths.js';
import { hostOf, type LabHost, type LabState } from '../lab/state.js';
import { shellQuote } from './quote.js';
import { SshHost } from './ssh.js';

/**
 * A node of a lab on hosts: its program runs on its host in a control group of its own, under a small warden (a
 * shell script of ours) that a local `ssh` holds open. The local ssh is the node's handle here: it sits in the
 * node's local group with the lab's markers, so everything that owns a local node owns it (down, a dead owner's
 * warden, a failed test). The remote warden ends the node's group the moment its ssh goes (the handle killed, its
 * owner gone, the connection lost), and exits when the group empties (its program died), which ends the handle.
 * The program's output comes back on the handle's stdout: the node's log is here, as for a local node.
 */

/** Sets `base` to where the host mounts cgroup2 (a hybrid tree's `unified`, or the root), or empty. */
export const CGROUP2_ROOT = `base=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
  if [ "$(stat -fc %T "$d" 2>/dev/null)" = cgroup2fs ]; then base=$d; break; fi
done`;

/** Where on a host the labs there keep the runtime they share (hosts/runtime.ts), beside their directories. */
export const RUNTIME_CACHE = '.runtime';

/**
 * With $top the directory of every lab on the host, once a lab's own directory is gone: when no lab's directory is
 * left there, the runtime the labs shared goes too, and then $top itself. Under a lock on $top, which a lab linking
 * the runtime takes too (runtime.ts), after it has made its own directory there. The lock is taken on the directory
 * opened for reading: flock(1) given a path that is gone would make a file of it.
 */
export const LEAVE_TOP = `( exec 8<"$top" || exit 0
  flock 8
  for d in "$top"/*; do [ -e "$d" ] && exit 0; done
  rm -rf -- "$top/${RUNTIME_CACHE}"
  rmdir "$top" ) 2>/dev/null`;

/**
 * $1: the node's group (below the cgroup2 root), $2: the lab's directory there (the working directory), $3: the
 * lab's nftables table, $4: the directory of every lab there, $5: where the node writes its events (a FIFO made
 * there, relayed on stdout, the program's own output then going to stderr), or empty; the rest: the program. When
 * the owner is gone (its ssh ended: killed, a dead owner's warden, the link lost) and no other node of the lab is
 * left on the host, it leaves nothing of the lab there, as `down` would: its table, its files, its groups. When the
 * program ends by itself or by a fault, it only exits.
 */
const WARDEN = `${CGROUP2_ROOT}
[ -n "$base" ] || { echo "zklab: no cgroup2 file system on this host" >&2; exit 3; }
cg=$base/$1; dir=$2; table=$3; top=$4; events=$5; shift 5
mkdir -p "$cg" "$dir" || exit 3
cd "$dir" || exit 3
exec 3<&0
enter='echo $$ > "$0/cgroup.procs" && exec "$@"'
relay=
if [ -n "$events" ]; then
  mkdir -p "\${events%/*}" && rm -f "$events" && mkfifo -m 600 "$events" || exit 3
  cat 0<>"$events" &
  relay=$!
  sh -c "$enter" "$cg" "$@" </dev/null 1>&2 &
else
  sh -c "$enter" "$cg" "$@" </dev/null 2>&1 &
fi
cat <&3 >/dev/null &
hold=$!
populated() { read -r ev < "$cg/cgroup.events" && [ "$ev" = 'populated 1' ]; }
i=0
while [ $i -lt 100 ] && ! populated; do sleep 0.02; i=$((i+1)); done
while populated && kill -0 "$hold" 2>/dev/null; do sleep 0.1; done
gone=; kill -0 "$hold" 2>/dev/null || gone=1
echo 1 > "$cg/cgroup.kill" 2>/dev/null
kill "$hold" 2>/dev/null
i=0
while [ $i -lt 100 ] && populated; do sleep 0.05; i=$((i+1)); done
rmdir "$cg" 2>/dev/null
# The last events written before the end are in the FIFO: the relay gets a moment to pass them on.
[ -z "$relay" ] || { sleep 0.2; kill "$relay" 2>/dev/null; }
if [ -n "$gone" ]; then
  lab=\${cg%/*}; others=
  for g in "$lab"/*/; do [ -d "$g" ] && others=1; done
  if [ -z "$others" ]; then
    nft delete table inet "$table" 2>/dev/null
    rm -rf -- "$dir"
    rmdir "$lab" 2>/dev/null
    ${LEAVE_TOP}
  fi
fi
exit 0`;

/**
 * What a signal to a node's group does on its host: $1 the action, $2 the node's group (below the cgroup2 root,
 * without its launch suffix: every launch of the node has a group of its own, so a warden that ends late never
 * touches the next launch's). Prints the pids it hit.
 */
const SIGNAL = `${CGROUP2_ROOT}
found=
for cg in "$base/$2".*/; do
  [ -n "$base" ] && [ -f "$cg/cgroup.procs" ] || continue
  found=1
  cat "$cg/cgroup.procs"
  case $1 in
    kill) echo 1 > "$cg/cgroup.kill" ;;
    term) for p in $(cat "$cg/cgroup.procs"); do kill -TERM "$p" 2>/dev/null; done
      # A frozen program cannot act on it: thawed, it closes its session.
      echo 0 > "$cg/cgroup.freeze" ;;
    freeze) echo 1 > "$cg/cgroup.freeze"
      i=0; while [ $i -lt 200 ] && ! grep -q 'frozen 1' "$cg/cgroup.events"; do sleep 0.01; i=$((i+1)); done ;;
    thaw) echo 0 > "$cg/cgroup.freeze" ;;
  esac
done
[ -n "$found" ] || { echo "no such node" >&2; exit 4; }`;

/** A lab's own groups on its hosts: one directory per lab, named like its network (a hash of the lab's root). */
export const remoteLabGroup = (paths: LabPaths): string => `zklab-${netPrefix(paths)}`;
export const remoteNodeGroup = (paths: LabPaths, node: string): string => `${remoteLabGroup(paths)}/${node}`;

/** Where the lab's master connection to a host listens (a unix socket path: kept short). */
export const controlPath = (paths: LabPaths, host: LabHost): string => join(paths.sshDir, `${host.name}.sock`);

export function sshHost(paths: LabPaths, state: LabState, host: LabHost): SshHost {
  return new SshHost(host, { knownHosts: state.hosts!.knownHosts, controlPath: controlPath(paths, host) });
}

/** The node that holds the lab's master connection to a host (a lab process like any node: down and wardens end it). */
export const masterNode = (host: LabHost): string => `ssh-${host.name}`;

/**
 * Starts the lab's master connection to each host that lacks one, and waits until each answers. Commands to a host
 * (faults, signals, uploads) and the nodes' holders then take milliseconds, not a key exchange each. The master's
 * end ends the host's nodes (their sessions go with it), as a lost link to the host would.
 */
export async function startMasters(paths: LabPaths, state: LabState, hosts: readonly LabHost[]): Promise<void> {
  await Promise.all(
    hosts.map(async (host) => {
      const ssh = sshHost(paths, state, host);
      const sock = controlPath(paths, host);
      if (await masterAnswers(ssh)) return;
      rmSync(sock, { force: true });
      mkdirSync(dirname(sock), { recursive: true, mode: 0o700 });
      const node = labNode(paths, masterNode(host), state);
      node.create();
      const child = spawnInGroup(node, 'ssh', ssh.masterArgs(), join(paths.logDir, `${masterNode(host)}.log`), {
        ...process.env,
        ...nodeEnv(paths, masterNode(host)),
      });
      let exited = false;
      child.once('exit', () => (exited = true));
      const until = Date.now() + 15_000;
      // ssh makes its control socket once the connection is authenticated: watched for, which is cheap (a
      // `-O check` is a process of its own each time). Should the master end later, commands over its socket fall
      // back to connections of their own (slower, not wrong).
      while (!exited && Date.now() < until && !existsSync(sock)) await sleep(5);
      // No master: commands take connections of their own (slower, not wrong); a host that cannot be reached says
      // so at the first command.
    }),
  );
}

async function masterAnswers(ssh: SshHost): Promise<boolean> {
  return (await execa('ssh', ['-O', 'check', ...ssh.sshArgs()], { reject: false, timeout: 5000 })).exitCode === 0;
}

function hostFor(state: LabState, node: string): LabHost {
  const host = hostOf(state, node);
  if (!host) throw new Error(`${node} has no host in the lab's placement`);
  return host;
}

/**
 * Starts `argv` as node `name` on its host, held by a local ssh in the node's local group. Each word goes to ssh
 * on its own (quoted). The handle is a shell here that carries the lab's marker and waits for its ssh; the program
 * on the host must carry none of this lab's markers (the remote lab's, if any): on a host that shares this
 * machine's process table (the sandbox), a marked program would be this lab's to kill directly, and its warden
 * with it, before the warden could leave the host clean.
 */
export function spawnRemoteNode(
  paths: LabPaths,
  state: LabState,
  name: string,
  argv: readonly string[],
  logFile: string,
  opts: { readonly events?: { readonly remote: string; readonly local: string } } = {},
): ChildProcess {
  const host = hostFor(state, name);
  const node = labNode(paths, name, state);
  node.create();
  const launch = `${remoteNodeGroup(paths, name)}.${Date.now().toString(36)}`;
  const dir = state.hosts!.dir;
  const events = opts.events?.remote ?? '';
  const remote = ['sh', '-c', WARDEN, 'zklab-node', launch, dir, netTable(paths), dirname(dir), events, ...argv];
  const args = [...sshHost(paths, state, host).sshArgs(), '--', ...remote.map(shellQuote)];
  // The handle's stdin must never end while it lives (the warden takes its end as the owner gone): a FIFO opened
  // for reading and writing by the handle itself, which nothing ever writes to.
  const fifo = holdFifo(paths);
  return spawnInGroup(
    node,
    '/bin/sh',
    ['-c', HANDLE, paths.nodeMarker, fifo, ...args],
    logFile,
    { ...process.env, ...nodeEnv(paths, name) },
    { stdoutFile: opts.events?.local },
  );
}

/**
 * The handle: $0 the lab's marker, $1 the FIFO for ssh's stdin, the rest ssh's arguments. It passes a TERM on to
 * its ssh (a stop of the handle is a stop of the node) and ends with ssh's own status.
 */
const HANDLE = `f=$1; shift
trap 'kill -TERM "$p" 2>/dev/null' TERM INT HUP
ssh "$@" 0<>"$f" &
p=$!
wait "$p"; s=$?
[ $s -le 128 ] || { wait "$p"; s=$?; }
exit $s`;

function holdFifo(paths: LabPaths): string {
  const fifo = paths.hostsHold;
  if (!existsSync(fifo)) execFileSync('mkfifo', ['-m', '600', fifo]);
  return fifo;
}

export type RemoteAction = 'kill' | 'term' | 'freeze' | 'thaw';

/** Acts on a node's whole group on its host, over SSH; resolves the pids it held. */
export async function signalRemoteNode(
  paths: LabPaths,
  state: LabState,
  name: string,
  action: RemoteAction,
): Promise<number[]> {
  const host = sshHost(paths, state, hostFor(state, name));
  const r = await host.run(['sh', '-c', SIGNAL, 'zklab-signal', action, remoteNodeGroup(paths, name)]);
  if (r.code !== 0)
    throw new Error(`${action} of ${name} on ${host.describe()}: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

/**
 * $1 the node's group (without its launch suffix), $2 a file: the first process of the node that has not mapped the
 * file, as `pid program`, or nothing when every one has (exit 4: no such node).
 */
const UNMAPPED = `${CGROUP2_ROOT}
found=
for cg in "$base/$1".*/; do
  [ -n "$base" ] && [ -f "$cg/cgroup.procs" ] || continue
  found=1
  for p in $(cat "$cg/cgroup.procs"); do
    grep -qF "$2" "/proc/$p/maps" 2>/dev/null && continue
    [ -e "/proc/$p" ] || continue
    echo "$p $(readlink "/proc/$p/exe")"; exit 0
  done
done
[ -n "$found" ] || { echo "no such node" >&2; exit 4; }`;

/** The first process of a node on its host that has not mapped `remoteFile` (pid and program), if any. */
export async function unmappedOnHost(
  paths: LabPaths,
  state: LabState,
  name: string,
  remoteFile: string,
): Promise<{ pid: number; program: string } | undefined> {
  const host = sshHost(paths, state, hostFor(state, name));
  const r = await host.run(['sh', '-c', UNMAPPED, 'zklab-maps', remoteNodeGroup(paths, name), remoteFile]);
  if (r.code !== 0) throw new Error(`${name} on ${host.describe()}: ${r.stderr.trim() || `exit ${r.code}`}`);
  const [pid, program] = r.stdout.trim().split(' ');
  return pid ? { pid: Number(pid), program: program ?? '' } : undefined;
}
