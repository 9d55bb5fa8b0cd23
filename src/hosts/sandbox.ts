import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { cacheDir } from '../cache-dir.js';
import { EnvironmentError, ProcessError, UsageError } from '../errors.js';
import { killLabNodes, nodeEnv, nodeGroup } from '../lab/node/group.js';
import {
  createBridge,
  createNodeNamespaces,
  freeSubnet,
  nodeNetProblem,
  nsName,
  nsPath,
  removeLabNet,
  serverAddr,
} from '../lab/node/net.js';
import { spawnInGroup } from '../lab/nodes.js';
import { LabPaths } from '../lab/paths.js';
import { HOSTS_DIR } from './lab-hosts.js';

/**
 * A sandbox of local hosts: each a network namespace of its own on a bridge, running its own sshd with a key made
 * here, with a private mount namespace (its own /srv and /run, where the lab's directory lives) and a cgroup
 * namespace rooted at its own control group, so that a lab on it makes its cgroups inside the host and `down`
 * ends everything any session started. Nothing reaches a host but SSH to its address; the machine's own files
 * (Java, ZooKeeper) are what a host has installed.
 *
 * The sandbox is built on the node network's primitives (lab/node/net.ts, group.ts) as a "lab" of its own at its
 * directory: the names of its namespaces and groups carry a hash of that directory, so sandboxes never collide.
 */
export const SANDBOX_MAX = 9;

export interface SandboxHost {
  readonly name: string;
  readonly addr: string;
}

export interface Sandbox {
  readonly dir: string;
  readonly hostsFile: string;
  readonly hosts: readonly SandboxHost[];
}

const STATE = 'sandbox.json';

export function defaultSandboxDir(env: NodeJS.ProcessEnv = process.env): string {
  return cacheDir('sandbox', env);
}

const files = (dir: string) => ({
  state: join(dir, STATE),
  hostsFile: join(dir, 'hosts.yaml'),
  key: join(dir, 'id_ed25519'),
  authorized: join(dir, 'authorized_keys'),
  knownHosts: join(dir, 'known_hosts'),
  hostDir: (name: string) => join(dir, name),
});

/** Where a host keeps its sshd's files: copied there at its start, before its own /root hides the sandbox's. */
const HOST_SSHD_DIR = '/run/zklab-host';

/**
 * Runs in the host's fresh mount and cgroup namespaces, as root: a tmpfs over /srv (the lab's directory), /run
 * (sshd's privilege-separation directory) and /root (a home of its own, as a fresh host has: this machine's dotfiles
 * would run at every session, ~100 ms of a shell's start-up here), the cgroup2 file system mounted again so the host
 * sees its own group as the root, then sshd in the foreground. $1: the host's directory (its config and key), $2:
 * the sandbox's authorized keys. They are copied into the host's /run first: the sandbox's directory may lie under
 * /root (the default, in the user's cache), which the host's own home then hides.
 */
const HOST_SCRIPT = `set -e
mount -t tmpfs zklab-host /srv
mount -t tmpfs zklab-run /run
mkdir -p -m 0700 ${HOST_SSHD_DIR}
cp "$1/sshd_config" "$1/ssh_host_ed25519_key" "$2" ${HOST_SSHD_DIR}/
mount -t tmpfs -o mode=0700 zklab-home /root
mkdir -p /run/sshd ${HOSTS_DIR}
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
  if [ "$(stat -fc %T "$d" 2>/dev/null)" = cgroup2fs ]; then umount -l "$d"; mount -t cgroup2 zklab-cgroup "$d"; break; fi
done
exec /usr/sbin/sshd -D -e -f ${HOST_SSHD_DIR}/sshd_config`;

function sshdConfig(addr: string): string {
  return `${[
    `ListenAddress ${addr}`,
    'Port 22',
    `HostKey ${HOST_SSHD_DIR}/ssh_host_ed25519_key`,
    `AuthorizedKeysFile ${HOST_SSHD_DIR}/authorized_keys`,
    'PidFile none',
    'UsePAM no',
    // The sandbox's files live in the user's cache (or a test's temporary directory): sshd's owner checks would
    // refuse a world-writable parent; the key itself is 0600 all the same.
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'AllowTcpForwarding no',
    'X11Forwarding no',
    'PrintMotd no',
    'Subsystem sftp internal-sftp',
    'LogLevel ERROR',
  ].join('\n')}\n`;
}

function keygen(file: string, comment: string): void {
  const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new ProcessError(`ssh-keygen for ${file} failed: ${(r.stderr || r.error?.message || '').trim()}`);
}

export function readSandbox(dir: string): Sandbox | undefined {
  const f = files(dir);
  if (!existsSync(f.state)) return undefined;
  const hosts = (JSON.parse(readFileSync(f.state, 'utf8')) as { hosts: SandboxHost[] }).hosts;
  return { dir, hostsFile: f.hostsFile, hosts };
}

function problem(): string | undefined {
  const net = nodeNetProblem();
  if (net) return net;
  if (!existsSync('/usr/sbin/sshd')) return 'sshd is not installed (Debian: openssh-server; bin/setup installs it)';
  if (spawnSync('ssh-keygen', ['-?']).error) return 'ssh-keygen is not installed (Debian: openssh-client)';
  if (!existsSync('/srv')) return 'this machine has no /srv, where each host mounts its own lab directory';
  return undefined;
}

async function listening(addr: string, port: number, timeoutMs: number, gone: () => boolean): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !gone()) {
    const ok = await new Promise<boolean>((res) => {
      const s = connect({ host: addr, port }, () => {
        s.destroy();
        res(true);
      });
      s.on('error', () => res(false));
    });
    if (ok) return true;
    await sleep(20);
  }
  return false;
}

/**
 * Makes a sandbox of `count` hosts at `dir` and writes its hosts file; one already there with as many hosts is
 * returned as it is. Refused (nothing made) without root, sshd or a free subnet.
 */
export async function makeSandbox(dir: string, count: number): Promise<Sandbox> {
  if (!Number.isInteger(count) || count < 1 || count > SANDBOX_MAX)
    throw new UsageError(`a sandbox has 1 to ${SANDBOX_MAX} hosts, got ${count}`, 'e.g. zklab hosts sandbox 3');
  const existing = readSandbox(dir);
  if (existing) {
    if (existing.hosts.length === count) return existing;
    throw new UsageError(
      `a sandbox of ${existing.hosts.length} hosts is up at ${dir}`,
      'remove it first with `zklab hosts sandbox down`, or ask for as many hosts',
    );
  }
  const why = problem();
  if (why) throw new EnvironmentError(`cannot make a sandbox of hosts here: ${why}`);
  const f = files(dir);
  const paths = new LabPaths(dir);
  const subnet = freeSubnet();
  const hosts = Array.from({ length: count }, (_, i) => ({ name: `h${i + 1}`, addr: serverAddr({ subnet }, i + 1) }));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    keygen(f.key, 'zklab sandbox');
    writeFileSync(f.authorized, readFileSync(`${f.key}.pub`), { mode: 0o600 });
    createBridge(paths, { subnet, addrs: {} });
    createNodeNamespaces(
      paths,
      hosts.map((h) => [h.name, h.addr] as const),
    );
    const pinned: string[] = [];
    for (const h of hosts) {
      const hd = f.hostDir(h.name);
      mkdirSync(hd, { recursive: true, mode: 0o700 });
      const hostKey = join(hd, 'ssh_host_ed25519_key');
      keygen(hostKey, h.name);
      const [type, key] = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ');
      pinned.push(`${h.addr} ${type} ${key}`);
      writeFileSync(join(hd, 'sshd_config'), sshdConfig(h.addr));
    }
    // The sandbox knows its hosts' keys: they are pinned before the first connection, not trusted on it.
    writeFileSync(f.knownHosts, `${pinned.join('\n')}\n`, { mode: 0o600 });
    for (const h of hosts) await startHost(paths, dir, h);
    writeFileSync(f.state, `${JSON.stringify({ hosts, subnet }, null, 2)}\n`);
    writeFileSync(f.hostsFile, hostsFileText(dir, hosts));
  } catch (e) {
    await removeSandbox(dir);
    throw e;
  }
  return { dir, hostsFile: f.hostsFile, hosts };
}

async function startHost(paths: LabPaths, dir: string, h: SandboxHost): Promise<void> {
  const group = nodeGroup(paths, h.name);
  group.create();
  const log = join(dir, h.name, 'sshd.log');
  const child = spawnInGroup(
    group,
    'nsenter',
    [
      `--net=${nsPath(nsName(paths, h.name))}`,
      '--',
      'unshare',
      '--mount',
      '--cgroup',
      '--propagation',
      'private',
      '/bin/sh',
      '-c',
      HOST_SCRIPT,
      'zklab-host',
      join(dir, h.name),
      files(dir).authorized,
    ],
    log,
    { ...process.env, ...nodeEnv(paths, h.name) },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  if (!(await listening(h.addr, 22, 10_000, () => exited))) {
    const said = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').at(-1) : '';
    throw new ProcessError(`the sandbox host ${h.name}'s sshd did not start${said ? `: ${said}` : ''}`);
  }
}

function hostsFileText(dir: string, hosts: readonly SandboxHost[]): string {
  const f = files(dir);
  const down = `zklab hosts sandbox down${dir === defaultSandboxDir() ? '' : ` --dir ${dir}`}`;
  const head =
    `# A sandbox of ${hosts.length} local hosts (zklab hosts sandbox): each a network namespace with its own sshd.\n` +
    `# Remove them with: ${down}\n`;
  return (
    head +
    stringify({
      known_hosts: f.knownHosts,
      hosts: hosts.map((h) => ({ name: h.name, ssh: `root@${h.addr}:22`, key: f.key, addr: h.addr })),
    })
  );
}

/** Ends every host of the sandbox (sshd and all its sessions started), its network and its files. */
export async function removeSandbox(dir: string): Promise<{ readonly hosts: number; readonly processes: number }> {
  const paths = new LabPaths(dir);
  const hosts = readSandbox(dir)?.hosts.length ?? 0;
  const processes = await killLabNodes(paths);
  removeLabNet(paths);
  // Only what a sandbox writes: a --dir given by mistake keeps everything else.
  const f = files(dir);
  for (const file of [f.state, f.hostsFile, f.key, `${f.key}.pub`, f.authorized, f.knownHosts])
    rmSync(file, { force: true });
  for (let i = 1; i <= SANDBOX_MAX; i++) rmSync(f.hostDir(`h${i}`), { recursive: true, force: true });
  for (const left of [paths.nodeRulesDir, dir]) {
    try {
      rmdirSync(left);
    } catch {
      // not empty (not ours) or gone
    }
  }
  return { hosts, processes };
}
