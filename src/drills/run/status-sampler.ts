import { recordLabEvent } from '../../lab/event-log.js';
import type { LabPaths } from '../../lab/paths.js';
import type { LabState } from '../../lab/state.js';
import { decodeStatusData, schedulerLayout } from '../../recipes/scheduler-layout.js';
import { isCode, unlessGone } from '../../zk/errors.js';
import type { ZkPort } from '../../zk/port.js';
import type { Sampler } from './sampler-session.js';

/** A status node lives for seconds (its TTL, then a reaper run): a quarter second places its end well enough. */
const SAMPLE_MS = 250;

/**
 * Follows the status znodes of every scheduler the lab's workers serve, as ZooKeeper lists them, and records each
 * one's arrival (`status-seen`, with its ctime and the TTL its data says: a client is never told a node's TTL) and
 * its departure (`status-gone`), for the statusTtl check. Nothing is asked of ZooKeeper in a lab without workers.
 */
export class StatusSampler implements Sampler {
  readonly everyMs = SAMPLE_MS;
  /** By scheduler root: the jobs whose status node was there at the last look. */
  private readonly present = new Map<string, Set<string>>();

  constructor(private readonly paths: LabPaths) {}

  async sample(zk: ZkPort, state: LabState): Promise<void> {
    const roots = new Set(state.contenders.flatMap((c) => (c.scheduler ? [c.scheduler.root] : [])));
    for (const root of roots) await this.look(zk, root);
  }

  private async look(zk: ZkPort, root: string): Promise<void> {
    const dir = schedulerLayout(root).status;
    const listed = new Set((await unlessGone(zk.getChildren(dir))) ?? []);
    const present = this.present.get(root) ?? new Set<string>();
    this.present.set(root, present);
    for (const job of [...present]) {
      if (listed.has(job)) continue;
      present.delete(job);
      recordLabEvent(this.paths, 'status-gone', { path: root, job });
    }
    for (const job of [...listed].filter((j) => !present.has(j)).sort()) {
      let read: { data: Buffer; stat: { ctime: number } };
      try {
        read = await zk.getData(`${dir}/${job}`);
      } catch (e) {
        if (isCode(e, 'NONODE')) continue; // gone between the listing and the read: never seen
        throw e;
      }
      present.add(job);
      recordLabEvent(this.paths, 'status-seen', {
        path: root,
        job,
        ctime: read.stat.ctime,
        ttlMs: decodeStatusData(read.data)?.ttlMs ?? null,
      });
    }
  }
}
