import { tmpdir } from 'node:os';
import { readLabLogs } from '../../lab/event-log.js';
import type { ContenderEvent } from '../../lab/events.js';
import { isLabLine, type LabLine } from '../../faults/kinds/registry.js';
import { type ContenderSpec, specOfContender } from '../../contenders/spec.js';
import { spawnContenders, pointAtOutsideEnsemble } from '../../contenders/service.js';
import { ensembleDown, ensembleUp } from '../../ensemble/service.js';
import { LabPaths } from '../../lab/paths.js';
import { clearLab } from '../../lab/clear.js';
import { findMarked } from '../../lab/node/procs.js';
import { ownedLabDir } from '../../lab/owned-dir.js';
import { ownLab, type OwnedLab } from '../../lab/owner.js';
import { buildHistory, type History } from '../judge/history.js';
import type { EnsembleSpec } from '../core/types.js';
import type { HostsRequest } from '../../hosts/hosts-file.js';

/**
 * The lab one drill run owns: a fresh directory of its own, its ensemble and contenders. `close()` stops every
 * process of it and removes the directory.
 * The run's process owns the lab: if it dies before `close()`, the lab's warden clears it.
 */
export class DrillLab {
  /** Contender ids in spawn order. */
  readonly contenders: string[] = [];
  /** Set when the drill runs against an ensemble zklab did not start. */
  private connect: string | undefined;

  private constructor(
    readonly paths: LabPaths,
    private readonly lease: OwnedLab,
  ) {}

  /**
   * A fresh directory of the run's own (see ownedLabDir): `dir` itself when it does not exist yet, else a new one
   * under it; by default under the system's temporary directory. Nothing is started before it is chosen.
   */
  static open(command: string, dir: string = tmpdir()): DrillLab {
    const paths = new LabPaths(ownedLabDir(dir, 'zklab-drill'));
    return new DrillLab(paths, ownLab(paths, { command, removeDir: true }));
  }

  /** `connect`: no ensemble of its own; the contenders go through link proxies to that one. */
  async up(
    spec: EnsembleSpec,
    opts: {
      signal?: AbortSignal;
      zkHome?: string;
      seed?: number;
      connect?: string;
      hosts?: HostsRequest;
    },
  ): Promise<void> {
    this.connect = opts.connect;
    if (opts.connect !== undefined) return pointAtOutsideEnsemble(this.paths, opts.connect);
    await ensembleUp(this.paths, {
      servers: spec.servers,
      observers: spec.observers,
      tickMs: spec.tick,
      ...(opts.hosts ? { hosts: opts.hosts } : { net: spec.net }),
      signal: opts.signal,
      zkHome: opts.zkHome,
      jitterSeed: opts.seed,
    });
  }

  /**
   * Spawns `count` contenders one at a time, each once the previous one has joined (a scheduler worker: once it is
   * registered as a worker, see waitJoined), so that spawn order is sequence order (c1 holds the lowest sequence
   * number). Returns their ids.
   */
  async spawn(spec: ContenderSpec, count: number, signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const one = specOfContender(spec, this.contenders.length);
      const request = this.connect === undefined ? one : { ...one, connect: this.connect };
      const { spawned } = await spawnContenders(this.paths, request, { signal });
      for (const c of spawned) {
        this.contenders.push(c.id);
        ids.push(c.id);
      }
    }
    return ids;
  }

  /** Every contender event and lab event recorded so far. */
  events(): { contender: ContenderEvent[]; lab: LabLine[] } {
    return readLabLogs(this.paths, this.contenders, isLabLine);
  }

  history(start: number, end: number): History {
    const { contender, lab } = this.events();
    return buildHistory(contender, lab, { start, end });
  }

  /**
   * The history so far and the moment it ends, taken once the logs are read: a line written while they were being
   * read (a claim, on a loaded machine) lies before that moment, so a question asked "now" sees what the history
   * holds (a new leader found, then "nobody leads" a millisecond later, was the moment taken first).
   */
  historyNow(start: number): { readonly history: History; readonly now: number } {
    const { contender, lab } = this.events();
    const now = Date.now();
    return { history: buildHistory(contender, lab, { start, end: now }), now };
  }

  /** Stops everything the lab started and deletes its files; returns how many processes it stopped. */
  async close(): Promise<number> {
    const { stopped } = await ensembleDown(this.paths, { purge: true });
    // Whatever escaped the lab's state (a process launched while `up` failed half-way) still carries its marker.
    const strays = findMarked(this.paths.markers).length;
    await clearLab(this.paths, { removeDir: true });
    this.lease.release();
    return stopped + strays;
  }
}
