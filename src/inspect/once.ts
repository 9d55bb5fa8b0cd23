import { TEXT_COLUMNS } from '../text.js';
import { ProcessError } from '../errors.js';
import { renderSnapshotText } from './render-text.js';
import type { Snapshot } from './snapshot.js';
import { InspectSource } from './source/inspect-source.js';
import type { InspectTarget } from './target.js';

export interface OnceOptions {
  readonly json: boolean;
  /** Columns for the text; default TEXT_COLUMNS. */
  readonly width?: number;
  readonly signal?: AbortSignal;
  readonly out: (text: string) => void;
}

/** Takes one complete snapshot (znodes read on a session, one 4lw round) and closes everything again. */
export async function takeSnapshot(
  target: InspectTarget,
  signal?: AbortSignal,
): Promise<{ snapshot: Snapshot; connected: boolean }> {
  const source = InspectSource.start({ target, live: false });
  try {
    const aborted = new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const snapshot = await Promise.race([source.ready(), aborted]);
    return { snapshot, connected: source.connected };
  } finally {
    await source.stop();
  }
}

/**
 * `zklab inspect --once` / `--json`: prints the snapshot; when no session could be had, prints what the servers
 * said anyway and then fails naming them.
 */
export async function inspectOnce(target: InspectTarget, opts: OnceOptions): Promise<void> {
  const { snapshot, connected } = await takeSnapshot(target, opts.signal);
  opts.out(
    opts.json ? JSON.stringify(snapshot, null, 2) : renderSnapshotText(snapshot, { width: opts.width ?? TEXT_COLUMNS }),
  );
  if (!connected) {
    throw new ProcessError(
      snapshot.problems[0] ?? `cannot reach ZooKeeper at ${target.connect}`,
      'check `zklab ensemble status`, or the --connect addresses',
    );
  }
}
