import { accessSync, constants, copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import type { ServerRecord } from '../lab/state.js';
import { readTemplate, TEMPLATES_DIR } from '../templates.js';
import { type PeerAddress } from '../lab/ports.js';
import { loopbackPeers, renderZooCfg, labServerConfig } from './config.js';
import { ensureDir } from '../lab/fs.js';

/** Fails with an EnvironmentError unless the lab directory exists or can be created, and is writable. */
export function ensureWritableLab(paths: LabPaths): void {
  try {
    ensureDir(paths.root);
    accessSync(paths.root, constants.W_OK);
  } catch (e) {
    throw new EnvironmentError(`the lab directory ${paths.root} is not writable (${(e as NodeJS.ErrnoException).code ?? 'error'})`, 'choose another with --lab DIR or ZKLAB_LAB, or fix its permissions', { cause: e });
  }
}

/**
 * Writes every server's zoo.cfg and myid, plus the logging configs.
 * `peersFor(id)` says how server `id` reaches each member; by default every member directly on loopback.
 */
export function writeServerFiles(
  paths: LabPaths,
  servers: readonly ServerRecord[],
  tickMs: number,
  peersFor: (id: number) => ReadonlyMap<number, PeerAddress> = () => loopbackPeers(servers),
): void {
  const template = readTemplate('zoo.cfg');
  ensureDir(paths.confDir);
  for (const f of ['log4j.properties', 'logback.xml']) copyFileSync(join(TEMPLATES_DIR, f), join(paths.confDir, f));
  for (const s of servers) {
    ensureDir(paths.serverConfDir(s.name));
    ensureDir(paths.serverDataDir(s.name));
    const cfg = renderZooCfg(template, labServerConfig(s, tickMs, paths.serverDataDir(s.name), peersFor(s.id)));
    writeFileSync(paths.serverConfig(s.name), cfg);
    const myid = join(paths.serverDataDir(s.name), 'myid');
    if (!existsSync(myid)) writeFileSync(myid, `${s.id}\n`);
  }
}
