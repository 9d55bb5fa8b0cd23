import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { dirname } from 'node:path';
import type { LabPaths } from './paths.js';

export interface ServerRecord {
  readonly id: number;
  readonly name: string;
  readonly clientPort: number;
  readonly quorumPort: number;
  readonly electionPort: number;
  pid?: number;
}

export interface ContenderRecord {
  readonly id: string;
  pid?: number;
  readonly recipe: string;
  readonly path: string;
  readonly priority?: number;
  readonly site?: string;
  readonly sessionTimeoutMs: number;
  readonly startedAt: number;
  stoppedAt?: number;
}

export interface LabState {
  version: 1;
  createdAt: string;
  tickMs: number;
  basePort: number;
  zkHome: string;
  servers: ServerRecord[];
  contenders: ContenderRecord[];
  /** Contender ids keep counting up across spawns and stops. */
  nextContender: number;
}

export function readState(paths: LabPaths): LabState | undefined {
  if (!existsSync(paths.stateFile)) return undefined;
  const raw = readFileSync(paths.stateFile, 'utf8');
  const parsed = JSON.parse(raw) as LabState;
  parsed.contenders ??= [];
  parsed.nextContender ??= parsed.contenders.length + 1;
  return parsed;
}

/** Writes through a temporary file and a rename, so a crash never leaves half a state file. */
export function writeState(paths: LabPaths, state: LabState): void {
  mkdirSync(dirname(paths.stateFile), { recursive: true });
  const tmp = `${paths.stateFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  renameSync(tmp, paths.stateFile);
}

export function serverByName(state: LabState, name: string): ServerRecord | undefined {
  return state.servers.find((s) => s.name === name);
}

/** The lab's state, or a UsageError telling the user to create one. Never creates anything. */
export function requireState(paths: LabPaths): LabState {
  const state = readState(paths);
  if (!state || state.servers.length === 0) {
    throw new UsageError(`there is no lab at ${paths.root}`, 'start one with `zklab ensemble up` (or point at yours with --lab DIR / ZKLAB_LAB)');
  }
  return state;
}
