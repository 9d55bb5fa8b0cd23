import { existsSync } from 'node:fs';
import type { LabPaths } from './paths.js';
import { labProcesses } from './nodes.js';

/** True when the directory holds a lab: its state file, or a process of it (one of its nodes', or its own). */
export function holdsLab(paths: LabPaths): boolean {
  return existsSync(paths.stateFile) || labProcesses(paths).length > 0;
}
