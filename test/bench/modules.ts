/** Which modules of test/bench are benchmarks: those that export `run()`. `run.ts` and the smoke test both ask here. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchModule } from './types.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const NOT_BENCHMARKS = ['run.ts', 'types.ts', 'bench-lab.ts', 'modules.ts'];

export interface NamedBench extends BenchModule {
  readonly name: string;
}

/** Every benchmark (or only those in `only`, when it names any), in file-name order. */
export async function benchModules(only: readonly string[] = []): Promise<NamedBench[]> {
  const names = readdirSync(here)
    .filter((f) => f.endsWith('.ts') && !NOT_BENCHMARKS.includes(f) && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((m) => only.length === 0 || only.includes(m))
    .sort();
  const out: NamedBench[] = [];
  for (const name of names) {
    const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as Partial<BenchModule>;
    if (typeof mod.run === 'function') out.push({ name, run: mod.run });
  }
  return out;
}
