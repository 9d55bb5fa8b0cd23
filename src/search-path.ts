import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The directories of PATH, in order, empty entries dropped. */
export function pathDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.PATH ?? '').split(delimiter).filter((d) => d.length > 0);
}

/** The first `dir/program` of `dirs` for which `accept` holds (by default: it exists), or undefined. */
export function findIn(
  dirs: readonly string[],
  program: string,
  accept: (file: string) => boolean = existsSync,
): string | undefined {
  return dirs.map((d) => join(d, program)).find((file) => accept(file));
}
