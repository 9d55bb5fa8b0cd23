import { formatDuration } from '../duration.js';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { requireContenderSpec } from '../contenders/spec.js';
import { spawnContenders } from '../contenders/service.js';
import { ensembleDown, ensembleUp } from '../ensemble/service.js';
import { ProcessError, UsageError } from '../errors.js';
import { ensureDir } from '../lab/fs.js';
import { LabPaths } from '../lab/paths.js';
import { ownedLabDir } from '../lab/owned-dir.js';
import { clearLab } from '../lab/clear.js';
import { labProcesses } from '../lab/nodes.js';
import { holdsLab } from '../lab/in-use.js';
import { ownLab, type OwnedLab } from '../lab/owner.js';

export const DEMO_LAB_DIR = '.zklab-demo';
export const DEMO_SERVERS = 3;
export const DEMO_CONTENDERS = 5;
export const DEMO_SESSION_TIMEOUT_MS = 2000;
/** A file that says the directory is a demo's own lab, so that a later demo may clear what an interrupted one left. */
const MARKER = 'zklab-demo';

/** The demo's own lab: claimed (cleared if an interrupted demo left it), and removed with all its processes at the end. */
export class DemoLab {
  private constructor(
    readonly paths: LabPaths,
    private readonly removeDir: boolean,
    private readonly lease: OwnedLab,
  ) {}

  /**
   * The demo's directory, given the one the user named: a demo's own left over (the marker says so) is taken again;
   * otherwise a fresh one of its own, as for a drill (ownedLabDir).
   */
  static place(dir: string): LabPaths {
    const root = resolve(dir);
    return new LabPaths(existsSync(join(root, MARKER)) ? root : ownedLabDir(root, 'zklab-demo'));
  }

  static async claim(paths: LabPaths): Promise<DemoLab> {
    const marker = join(paths.root, MARKER);
    const inUse = holdsLab(paths);
    if (inUse && !existsSync(marker)) {
      throw new UsageError(
        `${paths.root} holds a lab that is not a demo's`,
        'the demo runs in a lab of its own: leave out --lab (default .zklab-demo) or name a directory that does not exist',
      );
    }
    // What an interrupted demo left behind is the demo's to clear.
    if (inUse) await ensembleDown(paths, { purge: true });
    const fresh = !existsSync(paths.root) || readdirSync(paths.root).length === 0 || existsSync(marker);
    ensureDir(paths.root);
    writeFileSync(marker, 'this directory is the lab of `zklab demo`; the demo removes it when it ends\n');
    return new DemoLab(paths, fresh, ownLab(paths, { command: 'demo', removeDir: fresh }));
  }

  /** Ensemble up, then the contenders one at a time so that c1 leads first. */
  async start(opts: {
    readonly signal: AbortSignal;
    readonly zkHome?: string;
    readonly line: (text: string) => void;
  }): Promise<void> {
    const upAt = Date.now();
    const { status } = await ensembleUp(this.paths, {
      servers: DEMO_SERVERS,
      signal: opts.signal,
      ...(opts.zkHome ? { zkHome: opts.zkHome } : {}),
    });
    const modes = status.servers.map((s) => `${s.name} ${s.mode}`).join(', ');
    opts.line(`ensemble up in ${formatDuration(Date.now() - upAt)}: ${modes}`);
    const request = requireContenderSpec({ count: 1, recipe: 'predecessor', sessionTimeout: DEMO_SESSION_TIMEOUT_MS });
    const ids: string[] = [];
    for (let i = 0; i < DEMO_CONTENDERS; i++) {
      const { spawned } = await spawnContenders(this.paths, request, { signal: opts.signal });
      ids.push(...spawned.map((c) => c.id));
    }
    opts.line(
      `spawned ${ids.join(', ')}: predecessor recipe (each watches the one before it), ` +
        `session timeout ${formatDuration(DEMO_SESSION_TIMEOUT_MS)}`,
    );
  }

  /** Stops every process of the lab, checks that none is left, and removes the lab. */
  async close(): Promise<{ readonly stopped: number; readonly removed: boolean }> {
    const { stopped } = await ensembleDown(this.paths, { purge: true });
    const strays = labProcesses(this.paths);
    await clearLab(this.paths, { removeDir: this.removeDir });
    const left = labProcesses(this.paths);
    if (left.length > 0)
      throw new ProcessError(
        `processes ${left.join(', ')} of the demo's lab are still running`,
        `stop them: kill -9 ${left.join(' ')}`,
      );
    if (!this.removeDir) rmSync(join(this.paths.root, MARKER), { force: true });
    this.lease.release();
    return { stopped: stopped + strays.length, removed: this.removeDir };
  }
}
