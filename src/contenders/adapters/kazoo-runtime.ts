import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../templates.js';
import { findIn, pathDirs } from '../../search-path.js';

/** kazoo's Election as a zklab contender: a Python script run by an interpreter that can import kazoo. */

export const KAZOO_SCRIPT = join(PACKAGE_ROOT, 'src', 'contenders', 'adapters', 'kazoo_election.py');
const DEBIAN_PYTHON = '/usr/bin/python3';

export interface KazooRuntime {
  readonly python: string;
  readonly source: 'ZKLAB_PYTHON' | 'search';
  /** e.g. "2.8.0". */
  readonly kazooVersion: string;
  /** e.g. "3.11.2". */
  readonly pythonVersion: string;
}

/** Prints "<kazoo version> <python version>"; fails when kazoo cannot be imported. */
export const KAZOO_PROBE = [
  'import sys, kazoo',
  'try:',
  '    from kazoo.version import __version__ as v',
  'except Exception:',
  '    import importlib.metadata as m; v = m.version("kazoo")',
  'print(v, "%d.%d.%d" % sys.version_info[:3])',
].join('\n');

export function parseKazooProbe(stdout: string): { kazooVersion: string; pythonVersion: string } | undefined {
  const m = /^(\S+) (\d+\.\d+\.\d+)\s*$/m.exec(stdout);
  return m ? { kazooVersion: m[1]!, pythonVersion: m[2]! } : undefined;
}

/**
 * The interpreters to try, in order: ZKLAB_PYTHON alone when set (an explicit choice is not second-guessed), else
 * Debian's /usr/bin/python3 (where python3-kazoo installs), then every python3 on PATH. `resolve` maps a path to
 * its real file (or undefined when it does not exist) so that the same interpreter is tried once.
 */
export function pythonCandidates(env: NodeJS.ProcessEnv, resolve: (path: string) => string | undefined): string[] {
  if (env.ZKLAB_PYTHON) return [env.ZKLAB_PYTHON];
  const onPath = pathDirs(env).map((d) => join(d, 'python3'));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const candidate of [DEBIAN_PYTHON, ...onPath]) {
    const real = resolve(candidate);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    out.push(candidate);
  }
  return out;
}

function realPath(path: string): string | undefined {
  try {
    return existsSync(path) ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

const KAZOO_HINT =
  'install the Debian package `python3-kazoo` (bin/setup installs it; it is importable by /usr/bin/python3), ' +
  'or set ZKLAB_PYTHON to a python that has kazoo';

/** The first interpreter that imports kazoo. Throws UsageError naming what was tried. */
export async function locateKazoo(env: NodeJS.ProcessEnv = process.env): Promise<KazooRuntime> {
  const candidates = pythonCandidates(env, realPath);
  const { execa } = await import('execa');
  const tried: string[] = [];
  for (const python of candidates) {
    const r = await execa(python, ['-c', KAZOO_PROBE], { reject: false, timeout: 20_000 });
    const found = r.exitCode === 0 ? parseKazooProbe(r.stdout) : undefined;
    if (found) return { python, source: env.ZKLAB_PYTHON ? 'ZKLAB_PYTHON' : 'search', ...found };
    const why =
      r.failed && r.exitCode === undefined
        ? 'does not run'
        : /No module named/.test(r.stderr)
          ? 'has no kazoo'
          : `failed: ${r.stderr.split('\n').filter(Boolean).pop() ?? `exit ${r.exitCode}`}`;
    tried.push(`${python} ${why}`);
  }
  if (env.ZKLAB_PYTHON)
    throw new UsageError(
      `ZKLAB_PYTHON=${env.ZKLAB_PYTHON} cannot run the kazoo contender: ${tried.join('; ')}`,
      'point ZKLAB_PYTHON at a python that can `import kazoo`, ' +
        "or unset it to use Debian's `python3-kazoo` with /usr/bin/python3 (bin/setup installs it)",
    );
  const what = tried.length > 0 ? tried.join('; ') : 'no python3 on PATH and no /usr/bin/python3';
  throw new UsageError(`kazoo is not installed for any Python found (${what})`, KAZOO_HINT);
}

export function describeKazoo(rt: KazooRuntime): string {
  const from = rt.source === 'ZKLAB_PYTHON' ? ', from ZKLAB_PYTHON' : '';
  return `kazoo ${rt.kazooVersion} on ${rt.python} (Python ${rt.pythonVersion}${from})`;
}

/** The first `python3` on PATH (what `--exec -- python3 …` runs), or undefined. */
export function pathPython(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findIn(pathDirs(env), 'python3', (p) => realPath(p) !== undefined);
}

/** True when `python` can import kazoo. */
export async function importsKazoo(python: string): Promise<boolean> {
  const { execa } = await import('execa');
  const r = await execa(python, ['-c', 'import kazoo'], { reject: false, timeout: 20_000 });
  return r.exitCode === 0;
}
