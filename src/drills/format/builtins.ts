import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { TEMPLATES_DIR } from '../../templates.js';
import { parseDrill } from './schema.js';
import type { Drill } from './drill.js';

export const BUILTIN_DRILLS_DIR = join(TEMPLATES_DIR, 'drills');

/** The built-in drill names (file names without .yaml), sorted. */
export function listBuiltinDrills(): string[] {
  return readdirSync(BUILTIN_DRILLS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

export function loadDrillFile(path: string): Drill {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read drill file ${path}`, 'check the path, or give the name of a built-in drill', {
      cause: err,
    });
  }
  return parseDrill(text, path);
}

/** A path to a drill file (anything with a slash or ending in .yaml/.yml), or the name of a built-in drill. */
export function resolveDrill(nameOrPath: string): Drill {
  if (/[\\/]/.test(nameOrPath) || /\.ya?ml$/.test(nameOrPath)) return loadDrillFile(nameOrPath);
  const path = join(BUILTIN_DRILLS_DIR, `${nameOrPath}.yaml`);
  if (!existsSync(path)) {
    throw new UsageError(`no built-in drill named ${nameOrPath}`, `built-in drills: ${listBuiltinDrills().join(', ')}`);
  }
  return loadDrillFile(path);
}
