import { spawn } from 'node:child_process';
import { entryPoint } from '../entry-points.js';
import type { LabPaths } from './paths.js';
import { deregister, processRef, register } from './registry.js';

export const WARDEN_SCRIPT = entryPoint('lab/warden');
/** What the owner tells its warden when it has cleared the lab itself. */
export const RELEASED = 'released\n';

/** A lab bound to this process: when the process dies, by any signal, the warden clears the lab. */
export interface OwnedLab {
  /** Forgets the lab and lets the warden go, once this process has cleared the lab itself (the warden checks, finds nothing, and exits). */
  release(): void;
}

/**
 * Binds the lab to this process through a lease: a warden process holds the read end of a pipe whose write end
 * only this process has. A pipe, not a watch on this process's pid: the kernel closes it on any death, at once,
 * with no polling and no pid reuse to get wrong; and not the link daemon, which `ensemble down` and `up` stop and
 * start within one owned lab's life. The lab is registered as owned, with this process as its owner.
 */
export function ownLab(paths: LabPaths, opts: { readonly command: string; readonly removeDir: boolean }): OwnedLab {
  const args = [WARDEN_SCRIPT, paths.wardenMarker, ...(opts.removeDir ? ['--remove-dir'] : [])];
  const warden = spawn(process.execPath, args, { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  warden.on('error', () => undefined);
  const pipe = warden.stdin!;
  pipe.on('error', () => undefined);
  // Neither the child nor the pipe may keep this process alive: the lease ends with it, not the other way round.
  warden.unref();
  if ('unref' in pipe && typeof pipe.unref === 'function') pipe.unref();
  register(paths, {
    kind: 'owned',
    command: opts.command,
    temporary: opts.removeDir,
    owner: processRef(process.pid),
    ...(warden.pid ? { warden: processRef(warden.pid) } : {}),
  });
  return {
    release: () => {
      deregister(paths.root);
      // Told, not just closed: a closed pipe alone means the owner died and the lab needs clearing.
      pipe.end(RELEASED);
    },
  };
}
