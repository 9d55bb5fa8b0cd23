import type { ServerMode } from '../zk/four-letter.js';
import { isServing } from '../ensemble/quorum.js';
import { normalizeSessionId } from '../zk/session-id.js';
import { parentPath } from '../zk/paths.js';
import type { ElectionLayout } from '../recipes/leadership.js';
import type { SnapshotNode, SnapshotServer } from './snapshot.js';
import type { ContenderInput } from './snapshot-input.js';

export interface ProblemFacts {
  readonly path: string;
  /** Where the election's members are: the path itself, or a scheduler's election/. Default: path. */
  readonly electionPath?: string;
  readonly exists: boolean;
  readonly layout: ElectionLayout;
  readonly nodes: readonly SnapshotNode[];
  readonly contenders: readonly ContenderInput[];
  readonly servers: readonly SnapshotServer[];
  /** When the reads that gave `nodes` were sent; see SnapshotInput.treeReadAt. */
  readonly treeReadAt?: number;
}

const isServingMode = (mode: string): boolean => mode !== 'paused' && isServing(mode as ServerMode);

function ownerLabel(n: SnapshotNode): string {
  return n.contender ?? n.sessionId ?? 'no session';
}

/** Where the contenders' beliefs and ZooKeeper's facts disagree, or the election cannot progress. */
export function findProblems(f: ProblemFacts): string[] {
  const out: string[] = [];
  if (!f.exists) out.push(`${f.path} does not exist`);

  // A follower or observer serves only inside a quorum: one serving server in view says the quorum is there, even
  // when the leader is not among the servers in view (inspect --connect to one of them).
  if (f.servers.length > 0 && !f.servers.some((s) => isServingMode(s.mode))) {
    const modes = f.servers.map((s) => `${s.name} ${s.mode}`).join(', ');
    out.push(`no server in view is serving (${modes}): without a quorum nobody can lead`);
  }

  const leader = f.nodes.find((n) => n.leader);
  const leaderOwner = leader?.contender ? f.contenders.find((c) => c.id === leader.contender) : undefined;
  if (leader && leaderOwner && !leaderOwner.alive) {
    out.push(
      `${leaderOwner.id} owns the leader znode ${leader.name} but its process is gone: ` +
        `nobody leads until session ${leader.sessionId} expires`,
    );
  }

  const leaderSession = leader?.sessionId ? normalizeSessionId(leader.sessionId) : null;
  for (const c of f.contenders) {
    if (!c.alive || c.state !== 'leader') continue;
    if (c.sessionId !== null && normalizeSessionId(c.sessionId) === leaderSession) continue;
    // Compared at one instant: a belief logged after the tree was read may be of a change the tree does not show yet.
    if (f.treeReadAt !== undefined && (c.stateSince ?? 0) > f.treeReadAt) continue;
    const fact = leader
      ? `the leader znode ${leader.name} belongs to ${ownerLabel(leader)}`
      : 'there is no leader znode';
    out.push(`${c.id} believes it leads, but ${fact}`);
  }

  // What the nodes do, asked of their data planes: two that act as the leader at once is a split brain.
  const acting = f.contenders.filter((c) => c.probed === true).map((c) => c.id);
  for (const [i, a] of acting.entries()) {
    for (const b of acting.slice(i + 1)) out.push(`${a} and ${b} both act as leader now, by their probes`);
  }

  if (f.layout === 'sequential') {
    // Two znodes of one session: a create whose reply was lost and was retried without looking for its GUID.
    const election = f.electionPath ?? f.path;
    const bySession = new Map<string, SnapshotNode[]>();
    for (const n of f.nodes) {
      if (n.depth === 0 || parentPath(n.path) !== election || !n.sessionId) continue;
      const owned = bySession.get(n.sessionId);
      if (owned) owned.push(n);
      else bySession.set(n.sessionId, [n]);
    }
    for (const [session, owned] of bySession) {
      if (owned.length > 1) out.push(`${owned[0]!.contender ?? session} owns ${owned.length} znodes under ${election}`);
    }
  }
  return out;
}
