import { fourLetterWord, parseMntr, parseWchp } from '../../src/ensemble/fourlw.js';
import type { LabState } from '../../src/lab/state.js';

/** What the servers themselves say about watches: data watches by path (wchp, merged), and child watches. */
export async function watchFacts(
  state: LabState,
): Promise<{ byPath: Map<string, string[]>; childWatches: number; dataWatches: number }> {
  const byPath = new Map<string, string[]>();
  let childWatches = 0;
  let dataWatches = 0;
  for (const s of state.servers) {
    const wchp = parseWchp(await fourLetterWord(s.clientPort, 'wchp'));
    for (const [path, sessions] of wchp) byPath.set(path, [...(byPath.get(path) ?? []), ...sessions]);
    const total = Number(/Total watches:\s*(\d+)/.exec(await fourLetterWord(s.clientPort, 'wchs'))?.[1] ?? 0);
    const mntr = parseMntr(await fourLetterWord(s.clientPort, 'mntr'));
    const all = Number(mntr.get('zk_watch_count') ?? 0);
    dataWatches += total;
    childWatches += all - total;
  }
  return { byPath, childWatches, dataWatches };
}
