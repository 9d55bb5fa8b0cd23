import { LabPaths, resolveLabDir } from '../lab/paths.js';

/** Options every command accepts. */
export interface GlobalArgs {
  readonly lab?: string;
  readonly verbose?: boolean;
  readonly 'zk-home'?: string;
}

export interface CommandContext {
  readonly signal: AbortSignal;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly isTTY: boolean;
}

export function labPaths(args: GlobalArgs): LabPaths {
  return new LabPaths(resolveLabDir(args.lab));
}
