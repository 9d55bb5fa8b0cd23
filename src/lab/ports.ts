import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { EnvironmentError } from '../errors.js';
import { wholeNumber } from '../validate.js';
import { describePortHolder } from './node/port-holder.js';

export const MAX_SERVERS = 9;
/** Ports a lab reserves: client, quorum and election per server (link proxies listen on the same ports at addresses of their own). */
export const BLOCK_SIZE = 200;
const RANGE_START = 10_000;
const RANGE_END = 32_000; // below Linux's ephemeral range (32768+), so client sockets never squat on lab ports

export interface ServerPorts {
  readonly id: number;
  readonly clientPort: number;
  readonly quorumPort: number;
  readonly electionPort: number;
}

/** Server i (1-based) gets base+i-1 for clients, base+10+i-1 for quorum, base+20+i-1 for election. */
export function planServerPorts(base: number, servers: number): ServerPorts[] {
  return Array.from({ length: servers }, (_, i) => ({
    id: i + 1,
    clientPort: base + i,
    quorumPort: base + 10 + i,
    electionPort: base + 20 + i,
  }));
}

export function allPorts(plan: readonly ServerPorts[]): number[] {
  return plan.flatMap((p) => [p.clientPort, p.quorumPort, p.electionPort]);
}

/** Where a server reaches a peer: its quorum and election ports on a host (a name, in a lab), and its role. */
export interface PeerAddress {
  readonly host: string;
  readonly quorumPort: number;
  readonly electionPort: number;
  /** Observers follow the leader without voting; absent: a voting participant. */
  readonly role?: ServerRole;
}

export const SERVER_ROLES = ['participant', 'observer'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

/** A lab server's name: also the host name its peers use for it (each server's own hosts file resolves it). */
export function serverName(id: number): string {
  return `zk${id}`;
}

/**
 * The loopback address on which server `from` reaches server `to`: the link proxy of that pair listens there, on
 * `to`'s own ports. All of 127.0.0.0/8 is local on Linux, so every pair gets an address of its own with no setup.
 * Addresses, not ports, tell the pairs apart because a dynamic configuration is one text for every server: each
 * server names its peers zkN, and each resolves zkN through a hosts file of its own to its own pair's address.
 */
export function peerLinkHost(from: number, to: number): string {
  return `127.${from}.${to}.1`;
}

/** A lab's preferred block comes from a hash of its directory, so two labs start from different blocks. */
export function preferredBase(labRoot: string): number {
  const slots = Math.floor((RANGE_END - RANGE_START) / BLOCK_SIZE);
  const h = createHash('sha256').update(labRoot).digest().readUInt32BE(0);
  return RANGE_START + (h % slots) * BLOCK_SIZE;
}

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A port the kernel picks as free on loopback now (for a short-lived process of its own, not a lab's block). */
export function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function takenPorts(ports: readonly number[]): Promise<number[]> {
  const results = await Promise.all(ports.map(async (p) => ((await isPortFree(p)) ? undefined : p)));
  return results.filter((p): p is number => p !== undefined);
}

/** A --base-port as given: a whole number with room for a lab's block of ports above it. */
export function validateBasePort(base: unknown): number {
  return wholeNumber(
    base,
    '--base-port',
    1024,
    65_535 - BLOCK_SIZE,
    `a lab reserves ${BLOCK_SIZE} ports from there for its servers`,
  );
}

interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/**
 * Every loopback address and port a lab of this plan listens on with link proxies: the servers' own ports on
 * 127.0.0.1, and each pair's quorum and election proxy at the pair's address. A block whose servers are down can
 * still be held by another lab's link daemon at the pair addresses.
 */
function blockEndpoints(plan: readonly ServerPorts[]): Endpoint[] {
  const own = allPorts(plan).map((port) => ({ host: '127.0.0.1', port }));
  const pairs = plan.flatMap((from) =>
    plan
      .filter((to) => to.id !== from.id)
      .flatMap((to) => [to.quorumPort, to.electionPort].map((port) => ({ host: peerLinkHost(from.id, to.id), port }))),
  );
  return [...own, ...pairs];
}

async function takenEndpoints(plan: readonly ServerPorts[]): Promise<Endpoint[]> {
  const ends = blockEndpoints(plan);
  const free = await Promise.all(ends.map((e) => isPortFree(e.port, e.host)));
  return ends.filter((_, i) => !free[i]);
}

/** An address no lab listens on: a block's claim is a socket there on the block's base port. */
const CLAIM_HOST = '127.254.0.1';
/** Long enough for a lab to start its servers on the block; the claim also ends with the process that made it. */
const CLAIM_MS = 60_000;

/** This process's claims: the lab each block was claimed for, so the same lab coming up again keeps its block. */
const claims = new Map<number, string>();

/**
 * Holds a block for this process while its lab starts: between the check that a block is free and its servers
 * listening, another lab starting beside this one (in this process or another) would find it free too. Binding is
 * the atomic test-and-set; the socket dies with the process, so a claim leaves nothing behind.
 */
function claimBlock(base: number, labRoot: string): Promise<boolean> {
  const mine = claims.get(base);
  if (mine !== undefined) return Promise.resolve(mine === labRoot);
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port: base, host: CLAIM_HOST, exclusive: true }, () => {
      claims.set(base, labRoot);
      srv.unref();
      setTimeout(() => srv.close(() => claims.delete(base)), CLAIM_MS).unref();
      resolve(true);
    });
  });
}

/**
 * Chooses a free block and claims it. With an explicit base, that block or an error naming the taken port;
 * otherwise the lab's preferred block, or the next free one.
 */
export async function choosePorts(
  labRoot: string,
  servers: number,
  explicitBase?: number,
  /** Ports in use where the servers will listen when that is not here (a lab on hosts: theirs). */
  elsewhere: ReadonlySet<number> = new Set(),
): Promise<{ base: number; plan: ServerPorts[] }> {
  const usedElsewhere = (plan: readonly ServerPorts[]) => allPorts(plan).filter((p) => elsewhere.has(p));
  if (explicitBase !== undefined) {
    validateBasePort(explicitBase);
    const plan = planServerPorts(explicitBase, servers);
    const there = usedElsewhere(plan);
    if (there.length > 0)
      throw new EnvironmentError(
        `port ${there.join(', ')} is already in use on the lab's hosts`,
        'choose another --base-port, or omit it and zklab picks a block free there',
      );
    const taken = await takenEndpoints(plan);
    const own = taken.filter((e) => e.host === '127.0.0.1').map((e) => e.port);
    if (own.length > 0) {
      const holder = describePortHolder(own[0]!);
      throw new EnvironmentError(
        `port ${own.join(', ')} on 127.0.0.1 is already in use${holder ? `, ${holder}` : ''}`,
        `choose another --base-port, or omit it and zklab picks a free block`,
      );
    }
    if (taken.length === 0 && !(await claimBlock(explicitBase, labRoot)))
      taken.push({ host: CLAIM_HOST, port: explicitBase });
    if (taken.length > 0)
      throw new EnvironmentError(
        `${taken.map((e) => `${e.host}:${e.port}`).join(', ')} already in use: another lab's link proxies, or a lab ` +
          'starting on this block',
        `choose another --base-port, or omit it and zklab picks a free block`,
      );
    return { base: explicitBase, plan };
  }
  const slots = Math.floor((RANGE_END - RANGE_START) / BLOCK_SIZE);
  const first = preferredBase(labRoot);
  for (let i = 0; i < slots; i++) {
    const base = RANGE_START + ((first - RANGE_START + i * BLOCK_SIZE) % (slots * BLOCK_SIZE));
    const plan = planServerPorts(base, servers);
    if (usedElsewhere(plan).length > 0) continue;
    if ((await takenEndpoints(plan)).length === 0 && (await claimBlock(base, labRoot))) return { base, plan };
  }
  throw new EnvironmentError(
    `no free block of ports between ${RANGE_START} and ${RANGE_END}`,
    'stop other labs (`zklab ensemble down`) or pass --base-port',
  );
}
