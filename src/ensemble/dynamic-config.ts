import type { ServerRole } from '../lab/ports.js';
import type { ServerRecord } from '../lab/state.js';

/** A member as the servers' dynamic configuration lists it. */
export interface ConfigMember {
  readonly id: number;
  readonly host: string;
  readonly quorumPort: number;
  readonly electionPort: number;
  readonly role: ServerRole;
  /** The client address, when the line gives one (`;host:port`). */
  readonly client: string | null;
}

/** The dynamic configuration as `getConfig` (zkCli `config`) prints it. */
export interface DynamicConfig {
  /** Hex, as ZooKeeper prints it (the zxid that committed it). */
  readonly version: string;
  readonly members: readonly ConfigMember[];
}

const SERVER_LINE = /^server\.(\d+)=([^:;\s]+):(\d+):(\d+)(?::(participant|observer))?(?:;(\S+))?$/;

/** Parses `server.N=host:q:e[:role][;client]` lines and `version=<hex>`; unknown lines are skipped. */
export function parseDynamicConfig(text: string): DynamicConfig {
  let version = '';
  const members: ConfigMember[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('version=')) version = line.slice('version='.length);
    const m = SERVER_LINE.exec(line);
    if (!m) continue;
    members.push({
      id: Number(m[1]),
      host: m[2]!,
      quorumPort: Number(m[3]),
      electionPort: Number(m[4]),
      role: (m[5] as ServerRole | undefined) ?? 'participant',
      client: m[6] ?? null,
    });
  }
  return { version, members: members.sort((a, b) => a.id - b.id) };
}

/**
 * The line that joins a lab server with `reconfig -add`: its name (each server resolves it), ports, role and client
 * address. ZooKeeper refuses a joiner without all three ports (BADARGUMENTS), so from the first add the configuration
 * shows real client ports, which a client following it (Curator's EnsembleTracker) would use past the lab's links.
 */
export function joiningSpec(s: ServerRecord, clientHost = '127.0.0.1'): string {
  return `server.${s.id}=${s.name}:${s.quorumPort}:${s.electionPort}:${s.role ?? 'participant'};${clientHost}:${s.clientPort}`;
}

/** One line per member, ordered by id, as a fingerprint of the membership (roles included). */
export function membershipKey(c: DynamicConfig): string {
  return c.members.map((m) => `${m.id}:${m.role}`).join(',');
}

/** Voting members of a configuration. */
export function voters(c: DynamicConfig): ConfigMember[] {
  return c.members.filter((m) => m.role === 'participant');
}
