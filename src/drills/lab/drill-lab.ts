import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readLabLogs } from '../../lab/event-log.js';
import type { ContenderEvent } from '../../lab/events.js';
import { isLabLine, type LabLine } from '../../faults/kinds/registry.js';
import { type ContenderSpec, specOfContender } from '../../contenders/spec.js';
import { spawnContenders, pointAtOutsideEnsemble } from '../../contenders/service.js';
import { ensembleDown, ensembleUp } from '../../ensemble/service.js';
import { UsageError } from '../../errors.js';
import { LabPaths } from '../../lab/paths.js';
import { clearLab } from '../../lab/clear.js';
import { findMarked } from '../../lab/node/procs.js';
import { holdsLab } from '../../lab/in-use.js';
import { ownLab, type OwnedLab } from '../../lab/owner.js';
import { buildHistory, type History } from '../judge/history.js';
import type { EnsembleSpec } from '../core/types.js';

/**
 * The lab one drill run owns: a fresh directory (a temporary one unless given), its ensemble and contenders.
 * `close()` stops every process of it and deletes what it wrote; a directory it created is removed entirely.
 * The run's process owns the lab: if it dies before `close()`, the lab's warden clears it.
 */
export class DrillLab {
  /** Contender ids in spawn order. */
  readonly contenders: string[] = [];
  /** Set when the drill runs against an ensemble zklab did not start. */
  private connect: string | undefined;

  private constructor(
    readonly paths: LabPaths,
    private readonly created: boolean,
    private readonly lease: OwnedLab,
  ) {}

  /** Checks that the directory holds no lab (nothing is started or written before that is known). */
  static open(command: string, dir?: string): DrillLab {
    if (dir === undefined) {
      const paths = new LabPaths(mkdtempSync(join(tmpdir(), 'zklab-drill-')));
      return new DrillLab(paths, true, ownLab(paths, { command, removeDir: true }));
    }
    const root = resolve(dir);
    const paths = new LabPaths(root);
    if (holdsLab(paths)) {
      throw new UsageError(
        `${root} already holds a lab; a drill runs on a fresh one of its own`,
        `leave out --lab to use a temporary directory, or clear it first: \`zklab ensemble down --purge --lab ${dir}\``,
      );
    }
    const created = !existsSync(root) || readdirSync(root).length === 0;
    return new DrillLab(paths, created, ownLab(paths, { command, removeDir: created }));
  }

  /** `connect`: no ensemble of its own; the contenders go through link proxies to that one. */
  async up(
    spec: EnsembleSpec,
    opts: { signal?: AbortSignal; zkHome?: string; seed?: number; connect?: string },
  ): Promise<void> {
    this.connect = opts.connect;
    if (opts.connect !== undefined) return pointAtOutsideEnsemble(this.paths, opts.connect);
    await ensembleUp(this.paths, {
      servers: spec.servers,
      observers: spec.observers,
      tickMs: spec.tick,
      net: spec.net,
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

  /** Stops everything the lab started and deletes its files; returns how many processes it stopped. */
  async close(): Promise<number> {
    const { stopped } = await ensembleDown(this.paths, { purge: true });
    // Whatever escaped the lab's state (a process launched while `up` failed half-way) still carries its marker.
    const strays = findMarked(this.paths.markers).length;
    await clearLab(this.paths, { removeDir: this.created });
    if (!this.created) rmSync(this.paths.lockFile, { force: true });
    this.lease.release();
    return stopped + strays;
  }
}
