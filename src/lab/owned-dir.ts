import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * Where a lab made for one command (a drill run, the demo) goes, given the directory the user named: that directory
 * itself when it does not exist yet (the command makes it, and removes it when it ends), otherwise a new directory
 * under it, `<prefix>-XXXXXX`, made here. Either way the lab's directory is the command's own: whatever was in the
 * named directory before (files of the user's, a lab of another command) is left as it was.
 */
export function ownedLabDir(dir: string, prefix: string): string {
  const root = resolve(dir);
  if (!existsSync(root)) return root;
  if (!statSync(root).isDirectory())
    throw new UsageError(
      `${dir} is not a directory`,
      'give --lab (or ZKLAB_LAB) a directory, or a path that does not exist yet',
    );
  return mkdtempSync(join(root, `${prefix}-`));
}
