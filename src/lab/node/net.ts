import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { LabPaths } from '../paths.js';
import { findIn, pathDirs } from '../../search-path.js';

/**
 * The lab's own network of nodes on this machine (`--net ns`): a bridge, and a network namespace per node (server
 * or contender) with its loopback and one address on the bridge. Addresses come from 198.18.0.0/15 (RFC 2544's
 * benchmarking range, never routed), one /24 per lab; a namespace has no route but its /24, so no packet of a
 * lab leaves the machine. Every name carries a hash of the lab's root: what a lab made is found and removed
 * without its state (a warden clearing the lab of an owner that died).
 *
 * This module is the seam for labs beyond one machine: a node is a name with an address where its processes run.
 * A later host backend (machines over SSH, Kubernetes pods) gives nodes addresses of its own and runs the same
 * fault vocabulary (src/net/kernel-rules.ts) where they are.
 */

/** How the lab's members reach each other: through link proxies (ZooKeeper's links only), or as nodes on a bridge. */
export const NET_MODES = ['proxy', 'ns'] as const;
export type NetMode = (typeof NET_MODES)[number];

/** `--net TEXT` as a network, or one line saying which there are. */
export function netModeArg(text: string): NetMode {
  if ((NET_MODES as readonly string[]).includes(text)) return text as NetMode;
  throw new UsageError(`--net ${text} is unknown`, `use ${NET_MODES.join(' or ')}`);
}

/** The lab's node network, as its state records it. */
export interface NodeNet {
  /** The lab's /24, as its first three octets: `198.18.7`. */
  readonly subnet: string;
  /** Each node's address, by node name (zk1, c3). */
  readonly addrs: Readonly<Record<string, string>>;
}

const RANGE = [198, 18] as const;
const SUBNETS = 512;
/** The bridge's own address in the lab's /24: what the lab's commands reach the nodes from. */
const BRIDGE_HOST = 1;
/** Servers at .11 (zk1) to .19; contenders from .32 on. */
const SERVER_BASE = 10;
const CONTENDER_FIRST = 32;
const LAST_HOST = 254;

/** The prefix of every name of the lab's network: `zl` and 8 hex digits of the lab's root. */
export function netPrefix(paths: LabPaths): string {
  return `zl${createHash('sha256').update(paths.root).digest('hex').slice(0, 8)}`;
}

export const bridgeName = (paths: LabPaths): string => `${netPrefix(paths)}br`;
export const nsName = (paths: LabPaths, node: string): string => `${netPrefix(paths)}-${node}`;
/** The host end of a node's veth pair (15 characters at most, as Linux requires). */
const hostEnd = (paths: LabPaths, node: string): string => `${netPrefix(paths)}${node}`.slice(0, 15);

/** The record of the nftables script last applied to a node's table (`host`: the bridge's), src/net/node-faults.ts. */
export const appliedRulesFile = (paths: LabPaths, name: string): string => join(paths.nodeRulesDir, `${name}.nft`);

/** Where a network namespace's handle lives (`ip netns add` makes it). */
export const nsPath = (ns: string): string => `/run/netns/${ns}`;

function run(cmd: string, args: readonly string[], input?: string): string {
  return execFileSync(cmd, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs `ip` commands as one batch (`ip -batch -`), in `ns` when given. Throws with ip's own message. */
export function ipBatch(lines: readonly string[], ns?: string): void {
  if (lines.length === 0) return;
  const args = [...(ns ? ['-n', ns] : []), '-batch', '-'];
  const r = spawnSync('ip', args, { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim()}`);
}

const CAP_NET_ADMIN = 12;
const CAP_SYS_ADMIN = 21;

function hasCapability(bit: number): boolean {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('CapEff:'));
    return line !== undefined && (BigInt(`0x${line.slice(7).trim()}`) & (1n << BigInt(bit))) !== 0n;
  } catch {
    return false;
  }
}

function onPath(program: string): boolean {
  const dirs = pathDirs({ PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' });
  return findIn([...dirs, '/usr/sbin', '/sbin'], program) !== undefined;
}

/** What keeps this process from making a node network here, in words, or undefined when nothing does. */
export function nodeNetProblem(): string | undefined {
  const missing = [
    hasCapability(CAP_NET_ADMIN) ? [] : ['CAP_NET_ADMIN'],
    hasCapability(CAP_SYS_ADMIN) ? [] : ['CAP_SYS_ADMIN'],
  ].flat();
  if (missing.length > 0) return `it needs ${missing.join(' and ')} (root) to make network namespaces`;
  const tools = ['ip', 'nft', 'nsenter'].filter((t) => !onPath(t));
  if (tools.length > 0) return `${tools.join(', ')} ${tools.length === 1 ? 'is' : 'are'} not installed`;
  return undefined;
}

/** Whether netem can be put on `dev` in namespace `ns` (a delay of 0 ms, replaced by the real one when there is one). */
export function netemOn(ns: string, dev: string): { readonly ok: boolean; readonly why: string } {
  const r = spawnSync('tc', ['-n', ns, 'qdisc', 'replace', 'dev', dev, 'root', 'netem', 'delay', '0ms'], {
    encoding: 'utf8',
  });
  return { ok: r.status === 0, why: r.status === 0 ? '' : (r.stderr || r.error?.message || `exit ${r.status}`).trim() };
}

/**
 * Whether this kernel has netem (the delays of the node network), tried in a namespace made for the question and
 * removed at once; undefined when no namespace can be made here.
 */
export function netemHere(): { readonly ok: boolean; readonly why: string } | undefined {
  if (nodeNetProblem() !== undefined) return undefined;
  const ns = `zklab-netem-${process.pid}`;
  if (spawnSync('ip', ['netns', 'add', ns]).status !== 0) return undefined;
  try {
    spawnSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    return netemOn(ns, 'lo');
  } finally {
    spawnSync('ip', ['netns', 'delete', ns]);
  }
}

/** The /24s in use on this machine from the lab's range (any lab's bridge, or anything else's address). */
function subnetsInUse(): Set<string> {
  const out = run('ip', ['-4', '-o', 'addr', 'show']);
  const used = new Set<string>();
  for (const m of out.matchAll(/inet (198\.1[89]\.\d+)\.\d+\//g)) used.add(m[1]!);
  return used;
}

/** The first /24 of the range that no interface of this machine uses. */
export function freeSubnet(): string {
  const used = subnetsInUse();
  for (let i = 0; i < SUBNETS; i++) {
    const subnet = `${RANGE[0]}.${RANGE[1] + Math.floor(i / 256)}.${i % 256}`;
    if (!used.has(subnet)) return subnet;
  }
  throw new Error('every /24 of 198.18.0.0/15 is in use on this machine');
}

export const bridgeAddr = (net: Pick<NodeNet, 'subnet'>): string => `${net.subnet}.${BRIDGE_HOST}`;

/** A server's address: fixed by its id, so every server's hosts file can name every other. */
export const serverAddr = (net: Pick<NodeNet, 'subnet'>, id: number): string => `${net.subnet}.${SERVER_BASE + id}`;

/** The lowest contender address not held by a node of the lab. */
export function freeContenderAddr(net: NodeNet): string {
  const taken = new Set(Object.values(net.addrs));
  for (let host = CONTENDER_FIRST; host <= LAST_HOST; host++) {
    const addr = `${net.subnet}.${host}`;
    if (!taken.has(addr)) return addr;
  }
  throw new Error(`every contender address of ${net.subnet}.0/24 is taken: stop some contenders`);
}

/** Makes the lab's bridge with its address (the nodes' way to and from the lab's commands). */
export function createBridge(paths: LabPaths, net: NodeNet): void {
  const br = bridgeName(paths);
  ipBatch([`link add ${br} type bridge`, `addr add ${bridgeAddr(net)}/24 dev ${br}`, `link set ${br} up`]);
}

/**
 * Makes nodes' namespaces, each with its loopback up and eth0 holding its address on the lab's bridge: the machine's
 * side in one `ip -batch` for all of them (eth0 is made inside its namespace at once), then one batch per namespace.
 */
export function createNodeNamespaces(paths: LabPaths, nodes: readonly (readonly [string, string])[]): void {
  if (nodes.length === 0) return;
  try {
    ipBatch(
      nodes.flatMap(([node]) => {
        const [ns, host] = [nsName(paths, node), hostEnd(paths, node)];
        return [
          `netns add ${ns}`,
          `link add ${host} type veth peer name eth0 netns ${ns}`,
          `link set ${host} master ${bridgeName(paths)}`,
          `link set ${host} up`,
        ];
      }),
    );
    for (const [node, addr] of nodes) {
      ipBatch([`addr add ${addr}/24 dev eth0`, 'link set eth0 up', 'link set lo up'], nsName(paths, node));
      // A namespace made afresh holds no table, whatever an earlier one of the same name held.
      rmSync(appliedRulesFile(paths, node), { force: true });
    }
  } catch (e) {
    for (const [node] of nodes) removeNodeNs(paths, node);
    throw e;
  }
}

/** Makes one node's namespace (createNodeNamespaces). */
export const createNodeNs = (paths: LabPaths, node: string, addr: string): void =>
  createNodeNamespaces(paths, [[node, addr]]);

/** Removes a node's namespace (its veth pair and its rules go with it). Nothing there: nothing to do. */
export function removeNodeNs(paths: LabPaths, node: string): void {
  const ns = nsName(paths, node);
  rmSync(appliedRulesFile(paths, node), { force: true });
  // The machine's end of the veth pair goes at once; the kernel tears a namespace down a moment after its delete.
  if (existsSync(`/sys/class/net/${hostEnd(paths, node)}`)) spawnSync('ip', ['link', 'delete', hostEnd(paths, node)]);
  if (existsSync(nsPath(ns))) spawnSync('ip', ['netns', 'delete', ns]);
}

/** The lab's namespaces this machine has, by their names. */
export function labNamespaces(paths: LabPaths): string[] {
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  const prefix = `${netPrefix(paths)}-`;
  return r.stdout
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((n) => n.startsWith(prefix));
}

/** The name of the lab's nftables tables: the bridge's in this namespace, and each node's in its own. */
export const netTable = (paths: LabPaths): string => netPrefix(paths);

/** Runs an nft script, in `ns` when given; throws with nft's own message. */
export function nft(script: string, ns?: string): void {
  const [cmd, args] = ns ? ['nsenter', [`--net=${nsPath(ns)}`, '--', 'nft', '-f', '-']] : ['nft', ['-f', '-']];
  const r = spawnSync(cmd as string, args as string[], { input: script, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nft: ${(r.stderr || r.error?.message || '').trim()}`);
}

/**
 * The nftables lines that remove a table whether or not it is there (declaring it first makes the delete safe), in
 * the one transaction of the script they head.
 */
export const tableReset = (family: 'inet' | 'bridge', name: string): string[] => [
  `table ${family} ${name} {}`,
  `delete table ${family} ${name}`,
];

/** True when the machine's own namespace holds the lab's table (the kernel's rules for its commands' traffic). */
export function labTableLeft(paths: LabPaths): boolean {
  const r = spawnSync('nft', ['list', 'tables'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.split('\n').some((l) => l.trim() === `table bridge ${netTable(paths)}`);
}

/**
 * Removes everything of the lab's network: its table in this namespace, every node namespace (their tables and
 * veth pairs go with them), the bridge. The nodes' processes must be gone first. Safe when nothing is there.
 */
export function removeLabNet(paths: LabPaths): void {
  rmSync(paths.nodeRulesDir, { recursive: true, force: true });
  if (labTableLeft(paths)) {
    try {
      nft(`${tableReset('bridge', netTable(paths)).join('\n')}\n`);
    } catch {
      // gone meanwhile
    }
  }
  // Each veth pair goes with its end here (at once: a namespace itself is torn down by the kernel a moment later).
  const prefix = netPrefix(paths);
  const links = existsSync('/sys/class/net') ? readdirSync('/sys/class/net').filter((l) => l.startsWith(prefix)) : [];
  for (const link of links.filter((l) => l !== bridgeName(paths))) spawnSync('ip', ['link', 'delete', link]);
  for (const ns of labNamespaces(paths)) spawnSync('ip', ['netns', 'delete', ns]);
  if (existsSync(`/sys/class/net/${bridgeName(paths)}`)) spawnSync('ip', ['link', 'delete', bridgeName(paths)]);
}

/**
 * Makes what is missing of the lab's node network: the bridge, and a namespace for every node with an address (after
 * `down`, a reboot, or for a server just added). Nothing to do on the proxy net.
 */
export function ensureNodeNetwork(paths: LabPaths, lab: { readonly nodeNet?: NodeNet }): void {
  const net = lab.nodeNet;
  if (!net) return;
  if (!existsSync(`/sys/class/net/${bridgeName(paths)}`)) createBridge(paths, net);
  createNodeNamespaces(
    paths,
    Object.entries(net.addrs).filter(([node]) => !existsSync(nsPath(nsName(paths, node)))),
  );
}

/** The command that runs `command args` inside a node's namespace (nsenter: no shell, the same pid). */
export function inNodeNs(paths: LabPaths, node: string, command: string, args: readonly string[]): [string, string[]] {
  return ['nsenter', [`--net=${nsPath(nsName(paths, node))}`, '--', command, ...args]];
}
