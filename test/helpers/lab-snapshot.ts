import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under a directory with its content (logs and data excluded: servers write them on their own). */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'logs' && name !== 'data') walk(p);
      } else if (statSync(p).isFile()) {
        out[p] = readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}
