import type { Check } from '../../ensemble/doctor.js';
import { ZklabError } from '../../errors.js';
import { describeCurator, locateCurator } from './curator-runtime.js';
import { describeKazoo, locateKazoo } from './kazoo-runtime.js';

async function check(name: string, describe: () => Promise<string>, fix: string): Promise<Check> {
  try {
    return { name, ok: true, detail: await describe() };
  } catch (e) {
    if (e instanceof ZklabError) return { name, ok: false, detail: e.message, fix: e.hint ?? fix };
    return { name, ok: false, detail: e instanceof Error ? e.message : String(e), fix };
  }
}

/** One `doctor` check per adapter: is its runtime there, and which one. Never throws, never compiles. */
export async function adapterChecks(): Promise<Check[]> {
  return Promise.all([
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
