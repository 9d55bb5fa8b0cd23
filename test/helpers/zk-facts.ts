import type { LabState } from '../../src/lab/state.js';
import { fourLetter, mntrNumber, wchpByPath } from './zk-raw.js';

/** What the servers themselves say about watches: data watches by path (wchp, merged), and child watches. */
export async function watchFacts(
  state: LabState,
): Promise<{ byPath: Map<string, string[]>; childWatches: number; dataWatches: number }> {
  const byPath = new Map<string, string[]>();
  let childWatches = 0;
  let dataWatches = 0;
  for (const s of state.servers) {
    for (const [path, sessions] of wchpByPath(await fourLetter(s.clientPort, 'wchp'))) {
      byPath.set(path, [...(byPath.get(path) ?? []), ...sessions]);
    }
    const total = Number(/Total watches:\s*(\d+)/.exec(await fourLetter(s.clientPort, 'wchs'))?.[1] ?? 0);
    // mntr's zk_watch_count counts data and child watches; wchs only data watches.
    const all = mntrNumber(await fourLetter(s.clientPort, 'mntr'), 'zk_watch_count');
    dataWatches += total;
    childWatches += all - total;
  }
  return { byPath, childWatches, dataWatches };
}
