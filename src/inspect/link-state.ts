import { kindLinkText } from '../faults/kinds/registry.js';
import type { SnapshotPartition } from './snapshot.js';

/** A kind's own words for its fault (`delay 300ms`, `loss 10%`); else the link's mode (partition, reject). */
const faultText = (p: SnapshotPartition): string => kindLinkText(p) ?? p.fault;

/** Link faults in few words; the same fault both ways is one "zk1 ⇄ zk3 partition", one way "zk1 → zk3 delay 200ms". */
export function describeFaults(partitions: readonly SnapshotPartition[]): string[] {
  const keyOf = (from: string, to: string, text: string): string => `${from}\n${to}\n${text}`;
  const all = new Set(partitions.map((p) => keyOf(p.from, p.to, faultText(p))));
  const done = new Set<string>();
  const out: string[] = [];
  for (const p of partitions) {
    const text = faultText(p);
    const key = keyOf(p.from, p.to, text);
    if (done.has(key)) continue;
    done.add(key);
    const reverse = keyOf(p.to, p.from, text);
    if (all.has(reverse)) {
      done.add(reverse);
      out.push(`${p.from} ⇄ ${p.to} ${text}`);
    } else {
      out.push(`${p.from} → ${p.to} ${text}`);
    }
  }
  return out;
}
