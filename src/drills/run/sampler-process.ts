import { join } from 'node:path';
import type { LabPaths } from '../../lab/paths.js';
import { spawnDetached, stopProcesses } from '../../lab/node/procs.js';
import { entryPoint } from '../../entry-points.js';

const ENTRY = entryPoint('drills/run/sampler-child');

/** The drill's samplers of ZooKeeper's own state (who leads, status znodes), in a process of their own (why: see SamplerSession). */
export class SamplerProcess {
  private pid: number | undefined;

  constructor(private readonly paths: LabPaths) {}

  start(): void {
    this.pid = spawnDetached(
      process.execPath,
      ['--max-old-space-size=64', ENTRY, this.paths.nodeMarker],
      join(this.paths.logDir, 'sampler.log'),
    ).pid;
  }

  /** Stops it (after a last sample) and waits for it to exit; the lab's teardown would stop it too (it carries the lab's marker). */
  async stop(): Promise<void> {
    const pid = this.pid;
    this.pid = undefined;
    if (pid !== undefined) await stopProcesses([pid], 'SIGTERM', 2000).catch(() => undefined);
  }
}
