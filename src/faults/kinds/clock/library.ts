import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../../../cache-dir.js';
import { ensureDir } from '../../../lab/fs.js';
import { PACKAGE_ROOT } from '../../../templates.js';

/**
 * The clock shim (shim.c) as a shared library: compiled with the machine's C compiler once per source, into the
 * cache (`~/.cache/zklab/clock/`), by whoever needs it first (bin/setup does, ahead of time). Built to a temporary
 * name and renamed, so a node never preloads half a file and two builders never clash.
 */

export const SHIM_SOURCE = join(PACKAGE_ROOT, 'src', 'faults', 'kinds', 'clock', 'shim.c');

export type ShimLibrary = { readonly path: string } | { readonly why: string; readonly fix: string };

let built: ShimLibrary | undefined;

/** Where the library for this source lives. */
export function shimPath(source: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256').update(source).update('\0').update(process.arch).digest('hex').slice(0, 16);
  return join(cacheDir('clock', env), `zklab-clock-${hash}.so`);
}

/** The built shim, building it when it is not yet (about a tenth of a second), or why there is none. */
export function shimLibrary(): ShimLibrary {
  if (built && 'path' in built && existsSync(built.path)) return built;
  built = buildShim();
  return built;
}

function buildShim(): ShimLibrary {
  if (!existsSync(SHIM_SOURCE))
    return { why: `the shim's source is missing (${SHIM_SOURCE})`, fix: 'reinstall zklab: its package ships it' };
  const path = shimPath(readFileSync(SHIM_SOURCE, 'utf8'));
  if (existsSync(path)) return { path };
  ensureDir(join(path, '..'));
  const temp = `${path}.${process.pid}.tmp`;
  try {
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-o', temp, SHIM_SOURCE, '-ldl'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60_000,
    });
    renameSync(temp, path);
    return { path };
  } catch (e) {
    rmSync(temp, { force: true });
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT')
      return { why: 'no C compiler (cc) to build the clock shim', fix: 'install gcc and libc6-dev (bin/setup does)' };
    const first = err.stderr?.toString().trim().split('\n')[0] ?? err.message;
    return { why: `the clock shim did not compile: ${first}`, fix: 'install gcc and libc6-dev (bin/setup does)' };
  }
}
