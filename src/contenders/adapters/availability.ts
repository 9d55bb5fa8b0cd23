import type { Check } from '../../ensemble/doctor.js';
import { ZklabError } from '../../errors.js';
import { describeCurator, locateCurator } from './curator-runtime.js';
import { describeKazoo, importsKazoo, locateKazoo, pathPython } from './kazoo-runtime.js';

async function check(name: string, describe: () => Promise<string>, fix: string): Promise<Check> {
  try {
    return { name, ok: true, detail: await describe() };
  } catch (e) {
    if (e instanceof ZklabError) return { name, ok: false, detail: e.message, fix: e.hint ?? fix };
    return { name, ok: false, detail: e instanceof Error ? e.message : String(e), fix };
  }
}

/**
 * Whether `python3` on PATH, the one `--exec -- python3 my_service.py` runs, can import kazoo: a pyenv or venv
 * python3 first on PATH often cannot, while Debian's python3-kazoo is importable by /usr/bin/python3 only.
 */
async function pathPythonCheck(): Promise<Check> {
  const name = 'python3 on PATH';
  const python = pathPython();
  if (python === undefined) return { name, ok: false, detail: 'there is none', fix: 'install python3' };
  if (await importsKazoo(python)) return { name, ok: true, detail: `${python} imports kazoo` };
  const kazoo = await locateKazoo().catch(() => undefined);
  return {
    name,
    ok: false,
    detail: `${python} cannot import kazoo${kazoo ? `; ${kazoo.python} can` : ''}`,
    fix: kazoo
      ? `run your kazoo programs with it: \`zklab contenders spawn 3 --exec -- ${kazoo.python} my_service.py {connect}\``
      : 'install kazoo for it, or `python3-kazoo` for /usr/bin/python3 (bin/setup does)',
  };
}

/** One `doctor` check per adapter: is its runtime there, and which one. Never throws, never compiles. */
export async function adapterChecks(): Promise<Check[]> {
  return Promise.all([
    pathPythonCheck(),
    check(
      'curator-latch',
      async () => describeCurator(await locateCurator()),
      'install `libcurator-recipes-java` and `default-jdk-headless` (bin/setup does), or set CURATOR_CLASSPATH',
    ),
    check(
      'kazoo-election',
      async () => describeKazoo(await locateKazoo()),
      'install `python3-kazoo` (bin/setup does), or set ZKLAB_PYTHON to a python that has kazoo',
    ),
  ]);
}
