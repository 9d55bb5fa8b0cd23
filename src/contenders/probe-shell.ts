import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childrenOf } from '../lab/node/procs.js';

/**
 * Runs one contender's probe again and again through a shell of its own that lives as long as the probing: each
 * run is a fork of that small shell, not of the prober. Node forks its whole process for every child it starts
 * (about 0.6 ms of CPU each, 2 % of a core for ten probes every 250 ms); a shell forks in a tenth of that.
 * The script is fixed: the probe's words reach the shell as its positional parameters and run as "$@", never
 * parsed as shell text. Per run the shell says the probe's exit, one line: the least the prober has to read, as
 * its CPU is mostly spent per line. A hung probe is the shell's child, found through the kernel when it is killed.
 */
const SCRIPT = 'while read -r _; do "$@" </dev/null >/dev/null 2>&1; echo "$?"; done';

/** A shell's exit for a command it could not run: not executable (126), not found (127). */
const COULD_NOT_RUN = new Set([126, 127]);

export type ProbeRun = { readonly exit: number } | { readonly failed: string };

export class ProbeShell {
  private readonly shell: ChildProcess;
  private readonly waiting: ((line: string | null) => void)[] = [];
  private closed = false;
  private runs = 0;

  constructor(argv: readonly string[], env: NodeJS.ProcessEnv) {
    this.shell = spawn('/bin/sh', ['-c', SCRIPT, 'zklab-probe', ...argv], { stdio: ['pipe', 'pipe', 'ignore'], env });
    this.shell.on('error', () => this.close());
    this.shell.on('exit', () => this.close());
    this.shell.stdin!.on('error', () => this.close());
    createInterface({ input: this.shell.stdout! }).on('line', (line) => this.waiting.shift()?.(line));
  }

  private next(): Promise<string | null> {
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Runs the probe once; resolves with its exit status (137 when it was killed) or why it could not run. */
  async run(): Promise<ProbeRun> {
    if (this.closed) return { failed: 'its shell is gone' };
    const exit = this.next();
    this.shell.stdin!.write('\n');
    this.runs++;
    const code = await exit;
    this.runs--;
    if (code === null) return { failed: 'its shell is gone' };
    const n = Number(code);
    return COULD_NOT_RUN.has(n) ? { failed: `the shell could not run it (exit ${n})` } : { exit: n };
  }

  /** Kills the probe running now (a hung one): the shell's child, as the shell waits on nothing else. */
  killRunning(): void {
    if (this.runs === 0 || this.shell.pid === undefined) return;
    for (const pid of childrenOf(this.shell.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it ended meanwhile
      }
    }
  }

  /** Ends the shell (the probe running now, if any, is killed first). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.killRunning();
    this.shell.kill('SIGKILL');
    for (const w of this.waiting.splice(0)) w(null);
  }
}
