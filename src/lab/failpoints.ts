import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ensureDir } from './fs.js';
import type { LabPaths } from './paths.js';

/** Contender ids name files here: nothing but cN-like names may reach a path. */
function fileOf(paths: LabPaths, id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`not a contender id: ${JSON.stringify(id)}`);
  return paths.contenderFailpoint(id);
}

/** A failpoint armed for one contender: at the named point it does `action`, once. */
export interface ArmedFailpoint {
  readonly at: string;
  readonly action: string;
  readonly armedAt: number;
}

/** Arms (or replaces) the contender's failpoint; written whole by rename, so a contender never reads half of it. */
export function armFailpoint(paths: LabPaths, id: string, fp: Omit<ArmedFailpoint, 'armedAt'>): ArmedFailpoint {
  ensureDir(paths.failpointsDir);
  const armed: ArmedFailpoint = { ...fp, armedAt: Date.now() };
  const file = fileOf(paths, id);
  writeFileSync(`${file}.tmp`, JSON.stringify(armed), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return armed;
}

export function readFailpoint(paths: LabPaths, id: string): ArmedFailpoint | null {
  try {
    const v = JSON.parse(readFileSync(fileOf(paths, id), 'utf8')) as Partial<ArmedFailpoint>;
    return typeof v.at === 'string' && typeof v.action === 'string'
      ? { at: v.at, action: v.action, armedAt: Number(v.armedAt) || 0 }
      : null;
  } catch {
    return null;
  }
}

/**
 * What a contender calls at a named point: the armed failpoint if it is for `at`, disarmed as it is taken (one shot).
 * A read of a missing file per point passed is cheap next to the ZooKeeper round trips around it.
 */
export function takeFailpoint(paths: LabPaths, id: string, at: string): ArmedFailpoint | null {
  const fp = readFailpoint(paths, id);
  if (!fp || fp.at !== at) return null;
  clearFailpoint(paths, id);
  return fp;
}

export function clearFailpoint(paths: LabPaths, id: string): void {
  rmSync(fileOf(paths, id), { force: true });
}

/** Every armed failpoint of the lab, by contender. */
export function listFailpoints(paths: LabPaths): Map<string, ArmedFailpoint> {
  const out = new Map<string, ArmedFailpoint>();
  let names: string[];
  try {
    names = readdirSync(paths.failpointsDir);
  } catch {
    return out;
  }
  for (const n of names.filter((f) => f.endsWith('.json')).sort()) {
    const id = n.slice(0, -'.json'.length);
    const fp = readFailpoint(paths, id);
    if (fp) out.set(id, fp);
  }
  return out;
}
