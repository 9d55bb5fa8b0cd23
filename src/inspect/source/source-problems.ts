import type { Snapshot } from '../snapshot.js';
import type { ObserverState } from './observer.js';
import type { ServerProbe } from './server-poller.js';

export interface SourceFacts {
  readonly connect: string;
  readonly live: boolean;
  /** The znodes have been read on a session at least once. */
  readonly synced: boolean;
  readonly observer: ObserverState;
  readonly observerError: string | null;
  readonly probes: readonly ServerProbe[];
  readonly linkError: string | null;
}

/** buildSnapshot's problems, corrected and completed by what only the source knows: its session, its retries. Pure. */
export function sourceProblems(snapshot: Snapshot, f: SourceFacts): string[] {
  const missing = `${snapshot.path} does not exist`;
  const out = snapshot.problems.flatMap((p) => {
    if (p !== missing) return [p];
    // Without a completed read, "does not exist" would be a guess.
    if (!f.synced) return [];
    return [f.live ? `${p} yet: waiting for it to appear` : p];
  });
  switch (f.observer) {
    case 'unreachable': {
      const down = f.probes
        .filter((p) => !p.answered || p.error)
        .map((p) => `${p.target.name} ${p.error ?? 'not serving'}`);
      const detail = down.length > 0 ? down.join(', ') : (f.observerError ?? 'no session');
      out.unshift(`cannot reach ZooKeeper at ${f.connect} (${detail})${f.live ? ': retrying' : ''}`);
      break;
    }
    case 'connecting':
      out.unshift(`connecting to ZooKeeper at ${f.connect}`);
      break;
    case 'disconnected':
      out.unshift('the observer session lost its server: znodes as last seen, reconnecting');
      break;
    default:
      break;
  }
  if (f.linkError) out.push(`the lab network daemon does not answer, partitions unknown: ${f.linkError}`);
  return out;
}
