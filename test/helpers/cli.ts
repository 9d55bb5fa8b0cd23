import { execa } from 'execa';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/templates.js';

export const ZKLAB_BIN = join(PACKAGE_ROOT, 'bin', 'zklab.js');

export interface CliResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a user would, with an argument array. */
export async function zklab(
  args: readonly string[],
  opts: { lab?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  // Before a `--`: what follows it is a program's own arguments.
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  const lab = opts.lab ? ['--lab', opts.lab] : [];
  const r = await execa(process.execPath, [ZKLAB_BIN, ...args.slice(0, end), ...lab, ...args.slice(end)], {
    reject: false,
    env: { ...opts.env, FORCE_COLOR: '0' },
    extendEnv: true,
    cwd: opts.cwd,
    timeout: opts.timeoutMs ?? 90_000,
    stdin: 'ignore',
  });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
}
