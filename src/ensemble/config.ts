import { fillTemplate } from '../templates.js';
import { UsageError } from '../errors.js';
import { MAX_SERVERS, type PeerAddress } from '../lab/ports.js';
import { durationArg, wholeNumber } from '../validate.js';

export const DEFAULT_TICK_MS = 200;
export const DEFAULT_SERVERS = 3;
export const PRODUCTION_TICK_MS = 2000;

/**
 * The longest session a lab's servers grant: ZooKeeper's default of 20 ticks is 4 s at the lab's 200 ms tick,
 * too short for drills of slow failures, so a lab allows up to 60 s.
 */
export function labMaxSessionTimeoutMs(tickMs: number): number {
  return Math.max(20 * tickMs, 60_000);
}

/** The session timeouts a lab's servers grant: from 2 ticks (ZooKeeper's least) to the lab's maximum. */
export function labSessionBounds(tickMs: number): { readonly minMs: number; readonly maxMs: number } {
  return { minMs: 2 * tickMs, maxMs: labMaxSessionTimeoutMs(tickMs) };
}

/**
 * A lab server's config: client port on loopback only (or its node's own address on the lab's bridge), no
 * connection limit, sessions up to the lab's maximum.
 */
export function labServerConfig(
  s: { readonly id: number; readonly name: string; readonly clientPort: number },
  tickMs: number,
  dataDir: string,
  peers: ReadonlyMap<number, PeerAddress>,
  clientPortAddress = '127.0.0.1',
): ServerConfig {
  return {
    id: s.id,
    name: s.name,
    tickMs,
    dataDir,
    clientPort: s.clientPort,
    clientPortAddress,
    maxClientCnxns: 0,
    maxSessionTimeoutMs: labMaxSessionTimeoutMs(tickMs),
    peers,
  };
}
export const FOUR_LETTER_WORDS = ['srvr', 'stat', 'ruok', 'mntr', 'conf', 'cons', 'wchs', 'wchp', 'wchc'] as const;

export interface ServerConfig {
  readonly id: number;
  readonly name: string;
  readonly tickMs: number;
  readonly dataDir: string;
  readonly clientPort: number;
  readonly clientPortAddress: string;
  /** Lab-local: unlimited connections from one address (every contender is 127.0.0.1). Production: ZooKeeper's 60. */
  readonly maxClientCnxns: number;
  readonly maxSessionTimeoutMs: number;
  /** Every member as this server should reach it (itself included); may point at link proxies. */
  readonly peers: ReadonlyMap<number, PeerAddress>;
  /**
   * Dynamic reconfiguration on, with this super user's digest (`super:<base64 sha1>`) allowed to reconfigure.
   * Absent: reconfiguration off (generated configs for real hosts).
   */
  readonly superDigest?: string;
}

/** initLimit and syncLimit in ticks, scaled so their wall time stays sensible at any tick. */
export function limitsFor(tickMs: number): { initLimit: number; syncLimit: number } {
  return { initLimit: Math.max(10, Math.ceil(4000 / tickMs)), syncLimit: Math.max(5, Math.ceil(2000 / tickMs)) };
}

export { serverName } from '../lab/ports.js';

/** host:quorum:election[:role]. */
function serverLine(p: PeerAddress): string {
  return `${p.host}:${p.quorumPort}:${p.electionPort}${p.role === undefined ? '' : `:${p.role}`}`;
}

export function renderZooCfg(template: string, cfg: ServerConfig): string {
  const { initLimit, syncLimit } = limitsFor(cfg.tickMs);
  const serverLines =
    cfg.peers.size <= 1
      ? '# (standalone: a single server has no peers)'
      : [...cfg.peers.entries()]
          .sort(([a], [b]) => a - b)
          .map(([id, p]) => `server.${id}=${serverLine(p)}`)
          .join('\n');
  return fillTemplate(template, {
    name: cfg.name,
    id: cfg.id,
    tickTime: cfg.tickMs,
    initLimit,
    syncLimit,
    minSessionTimeout: labSessionBounds(cfg.tickMs).minMs,
    maxSessionTimeout: cfg.maxSessionTimeoutMs,
    dataDir: cfg.dataDir,
    clientPort: cfg.clientPort,
    clientPortAddress: cfg.clientPortAddress,
    maxClientCnxns: cfg.maxClientCnxns,
    serverLines,
    peerType: cfg.peers.get(cfg.id)?.role === 'observer' ? 'peerType=observer\n' : '',
    reconfig:
      cfg.superDigest === undefined
        ? 'reconfigEnabled=false'
        : [
            'reconfigEnabled=true',
            // ZooKeeper turns a key it does not know into the system property zookeeper.<key>: this one names the super user.
            `DigestAuthenticationProvider.superDigest=${cfg.superDigest}`,
          ].join('\n'),
  });
}

export function validateServerCount(n: unknown): number {
  return wholeNumber(n, '--servers', 1, MAX_SERVERS, 'try --servers 3 (an odd count tolerates (n-1)/2 failures)');
}

/**
 * The one rule for an ensemble's shape with observers: they need a replicated ensemble to follow (2 or more voters),
 * and a lab plans ports for MAX_SERVERS servers in all. Each caller words the problem for what it was given.
 */
export function observerShape(voters: number, observers: number): 'ok' | 'needs-voters' | 'too-many' {
  if (observers > 0 && voters < 2) return 'needs-voters';
  return voters + observers > MAX_SERVERS ? 'too-many' : 'ok';
}

/**
 * `--observers` beside `voters` voting servers; `voters` undefined: the count alone (a stopped lab keeps its voters;
 * `up` checks the shape it ends with).
 */
export function validateObservers(n: unknown, voters: number | undefined): number {
  const observers = wholeNumber(
    n,
    '--observers',
    0,
    MAX_SERVERS,
    'the number of non-voting servers, e.g. --servers 3 --observers 2',
  );
  if (voters === undefined) return observers;
  const shape = observerShape(voters, observers);
  if (shape === 'needs-voters') {
    throw new UsageError(
      `--observers ${observers} needs at least 2 voting servers, not ${voters}: a single server runs standalone and takes no observers`,
      `try --servers 3 --observers ${observers}`,
    );
  }
  if (shape === 'too-many') {
    throw new UsageError(
      `${voters} servers and ${observers} observers make ${voters + observers}; a lab runs at most ${MAX_SERVERS}`,
      'ask for fewer',
    );
  }
  return observers;
}

export function validateTick(t: unknown): number {
  return durationArg(
    t,
    '--tick',
    { min: 20, max: 10_000 },
    `e.g. --tick 200ms (the lab's default; ZooKeeper's own is ${PRODUCTION_TICK_MS}ms)`,
  );
}

/** A warning for even ensembles, or undefined. */
export function evenCountWarning(n: number): string | undefined {
  if (n % 2 !== 0 || n <= 0) return undefined;
  const failures = n / 2 - 1;
  const tolerate = failures === 0 ? 'no failure' : `${failures} failure${failures === 1 ? '' : 's'}`;
  const same = `${n - 1} ${n - 1 === 1 ? 'does' : 'do'}`;
  return `warning: ${n} servers tolerate ${tolerate}, as ${same}: a quorum needs ${n / 2 + 1}, so add or remove one`;
}

/** Peers for a lab on one machine, all on loopback, every server reached directly. */
export function loopbackPeers(
  ports: readonly { id: number; quorumPort: number; electionPort: number }[],
): Map<number, PeerAddress> {
  return new Map(
    ports.map((p) => [p.id, { host: '127.0.0.1', quorumPort: p.quorumPort, electionPort: p.electionPort }]),
  );
}

/** Configs for real hosts: one per host, ZooKeeper's standard ports, client port bound to that host's address. */
export function productionConfigs(
  hosts: readonly string[],
  tickMs: number,
  dataDir = '/var/lib/zookeeper',
): ServerConfig[] {
  if (hosts.length > MAX_SERVERS) {
    throw new UsageError(
      `--hosts lists ${hosts.length} hosts; zklab generates at most ${MAX_SERVERS}`,
      'list fewer hosts',
    );
  }
  const bad = hosts.find((h) => !/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/.test(h));
  if (bad !== undefined)
    throw new UsageError(
      `--hosts: "${bad}" is not a host name or address`,
      'give comma-separated names such as zk1.example.com,zk2.example.com,zk3.example.com',
    );
  const dup = hosts.find((h, i) => hosts.indexOf(h) !== i);
  if (dup !== undefined) throw new UsageError(`--hosts lists ${dup} twice`, 'give each host once');
  const peers = new Map(hosts.map((h, i) => [i + 1, { host: h, quorumPort: 2888, electionPort: 3888 }]));
  return hosts.map((host, i) => ({
    id: i + 1,
    name: host,
    tickMs,
    dataDir,
    clientPort: 2181,
    clientPortAddress: host,
    maxClientCnxns: 60,
    maxSessionTimeoutMs: 20 * tickMs,
    peers,
  }));
}
