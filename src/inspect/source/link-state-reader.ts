import { existsSync } from 'node:fs';
import type { LabPaths } from '../../lab/paths.js';
import { withDaemon } from '../../net/control.js';
import type { LinkInfo } from '../../net/protocol.js';
import type { SnapshotPartition } from '../snapshot.js';
import { type LabState, readStateIfAny } from '../../lab/state.js';
import { pairFaults } from '../../net/status.js';
import { kindLinks } from '../../faults/kinds/registry.js';

/** The faulted links as the snapshot shows them: one entry per (from, to, fault), whatever the link kinds. */
export function partitionsOf(links: readonly LinkInfo[]): SnapshotPartition[] {
  const out = new Map<string, SnapshotPartition>();
  const add = (p: SnapshotPartition): void => {
    const key = `${p.from}\n${p.to}\n${p.fault}\n${p.delayMs ?? ''}`;
    if (!out.has(key)) out.set(key, p);
  };
  for (const l of links) {
    if (l.fault.mode === 'blackhole') add({ from: l.from, to: l.to, fault: 'partition' });
    else if (l.fault.mode === 'reject') add({ from: l.from, to: l.to, fault: 'reject' });
    if (l.fault.delayMs > 0) add({ from: l.from, to: l.to, fault: 'delay', delayMs: l.fault.delayMs });
  }
  return [...out.values()];
}

export type LinkFaultsRead =
  | { readonly ok: true; readonly partitions: SnapshotPartition[] }
  | { readonly ok: false; readonly error: string };

/** On the node network the kernel cuts, not a daemon: the faults are what the lab's rules say. */
function kernelFaults(state: LabState): SnapshotPartition[] {
  const out: SnapshotPartition[] = pairFaults(state).flatMap((p): SnapshotPartition[] =>
    p.mode === 'pass' ? [] : [{ from: p.from, to: p.to, fault: p.mode === 'reject' ? 'reject' : 'partition' }],
  );
  return [...out, ...kindLinks(state)];
}

/** Asks the lab's link daemon for its links; no daemon socket means no lab network, hence no faults. */
export async function readLinkFaults(paths: LabPaths, timeoutMs = 2000): Promise<LinkFaultsRead> {
  const state = readStateIfAny(paths);
  if (state?.nodeNet) return { ok: true, partitions: kernelFaults(state) };
  if (!existsSync(paths.controlSocket)) return { ok: true, partitions: [] };
  try {
    const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'list' }, timeoutMs), { timeoutMs });
    return { ok: true, partitions: partitionsOf(links) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * The lab network's faults as last read from its daemon. Read when asked (the source asks when lab.json changed:
 * the net service records every rule change there after the daemon applied it) and, while the daemon does not
 * answer, on every ask until it does. One read at a time; an ask during a read reads once more after it.
 */
export class LinkFaultFollower {
  partitions: SnapshotPartition[] = [];
  /** Why the last read failed, or null. */
  error: string | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly paths: LabPaths,
    private readonly onChange: () => void,
  ) {}

  read(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = readLinkFaults(this.paths)
      .then((r) => {
        if (this.stopped) return;
        const before = JSON.stringify([this.partitions, this.error]);
        if (r.ok) {
          this.partitions = r.partitions;
          this.error = null;
        } else {
          this.error = r.error;
        }
        if (JSON.stringify([this.partitions, this.error]) !== before) this.onChange();
      })
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.read();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.reading;
  }
}
