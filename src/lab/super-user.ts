import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabPaths } from './paths.js';
import { ensureDir } from './fs.js';

/** The user ZooKeeper's digest provider treats as super (it may reconfigure the ensemble). */
export const SUPER_USER = 'super';

export interface SuperUser {
  /** `super:<password>`, as a client's digest auth gives it. Never leaves the lab directory. */
  readonly auth: string;
  /** `super:<base64 sha1>`, the form the servers' superDigest takes. */
  readonly digest: string;
}

/** ZooKeeper's digest of `user:password`: base64 of its SHA-1. */
export function digestOf(auth: string): string {
  const user = auth.slice(0, auth.indexOf(':'));
  return `${user}:${createHash('sha1').update(auth).digest('base64')}`;
}

/**
 * The lab's super user, made on first use: a random password in `<lab>/secrets/super` (0600 in a 0700
 * directory), so only the lab's owner can reconfigure the lab's servers.
 */
export function labSuperUser(paths: LabPaths): SuperUser {
  const dir = paths.secretsDir;
  ensureDir(dir);
  chmodSync(dir, 0o700);
  const file = join(dir, SUPER_USER);
  if (!existsSync(file))
    writeFileSync(file, `${SUPER_USER}:${randomBytes(18).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  // A umask or a copy may have widened it: the secret stays the owner's alone.
  chmodSync(file, 0o600);
  const auth = readFileSync(file, 'utf8').trim();
  return { auth, digest: digestOf(auth) };
}
