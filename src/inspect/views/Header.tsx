import { Text } from 'ink';
import { formatClock } from '../format.js';
import { plural } from '../../text.js';
import { leaderNode } from '../snapshot.js';
import type { Snapshot } from '../snapshot.js';

export interface HeaderProps {
  readonly snapshot: Snapshot;
}

/** What the probes say: "acting c3" (the nodes that act as the leader now), "? c2" for a probe that hung. */
function ActingText({ acting }: { readonly acting: Snapshot['acting'] }) {
  const leads = acting.filter((a) => a.leads === true).map((a) => a.id);
  const unknown = acting.filter((a) => a.leads === null).map((a) => a.id);
  return (
    <Text>
      <Text dimColor>{' · probes: '}</Text>
      <Text color={leads.length > 1 ? 'red' : leads.length === 1 ? 'green' : undefined} bold={leads.length > 0}>
        {leads.length > 0 ? `${leads.join(', ')} acting` : 'none acting'}
      </Text>
      {unknown.length > 0 && <Text color="yellow">{` · ${unknown.join(', ')} unknown`}</Text>}
    </Text>
  );
}

/**
 * "zklab inspect /election · sequential · leader c1 #1 · 6 znodes · 1 problem · 12:03:04.567" ("scheduler" for a
 * scheduler's root; "lock" and "holder c2 #3" for a lock).
 */
export function Header({ snapshot }: HeaderProps) {
  const leader = leaderNode(snapshot);
  const who = leader ? (leader.contender ?? leader.sessionId ?? leader.name) : null;
  const seq = leader?.sequence != null ? ` #${leader.sequence}` : '';
  // A free lock is no fault; an election without a leader is.
  const role = snapshot.lock ? 'holder' : 'leader';
  return (
    <Text wrap="truncate-end">
      <Text bold>{`zklab inspect ${snapshot.path}`}</Text>
      <Text dimColor>{` · ${snapshot.scheduler ? 'scheduler' : snapshot.lock ? 'lock' : snapshot.layout} · `}</Text>
      {who ? (
        <Text color="green" bold>{`${role} ${who}${seq}`}</Text>
      ) : (
        <Text color={snapshot.lock ? undefined : 'red'}>{`no ${role}`}</Text>
      )}
      {snapshot.acting.length > 0 && <ActingText acting={snapshot.acting} />}
      <Text dimColor>{` · ${plural(snapshot.nodes.length, 'znode')}`}</Text>
      {snapshot.problems.length > 0 && <Text color="red">{` · ${plural(snapshot.problems.length, 'problem')}`}</Text>}
      <Text dimColor>{` · ${formatClock(snapshot.takenAt)}`}</Text>
    </Text>
  );
}
