import { Text } from 'ink';
import { formatClock } from '../format.js';
import { plural } from '../../text.js';
import { leaderNode } from '../snapshot.js';
import type { Snapshot } from '../snapshot.js';

export interface HeaderProps {
  readonly snapshot: Snapshot;
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
      <Text dimColor>{` · ${plural(snapshot.nodes.length, 'znode')}`}</Text>
      {snapshot.problems.length > 0 && <Text color="red">{` · ${plural(snapshot.problems.length, 'problem')}`}</Text>}
      <Text dimColor>{` · ${formatClock(snapshot.takenAt)}`}</Text>
    </Text>
  );
}
