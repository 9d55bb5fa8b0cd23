import { existsSync } from 'node:fs';
import type { LabPaths } from './paths.js';
import { findMarked } from './procs.js';

/** True when the directory holds a lab: its state file, or a process that carries its marker. */
export function holdsLab(paths: LabPaths): boolean {
  return existsSync(paths.stateFile) || findMarked(paths.markers).length > 0;
}
