import { readFileSync } from 'node:fs';
import { UsageError } from '../../../errors.js';
import type { LabPaths } from '../../../lab/paths.js';
import { cmdlineOf, environOf, processState } from '../../../lab/node/procs.js';
import { labNode } from '../../../lab/nodes.js';
import type { LabState } from '../../../lab/state.js';
import { elfFacts } from './elf.js';

/**
 * Whether a clock fault can reach every process of a node, asked of the processes themselves: each must have the
 * node's clock file mapped (the shim maps it when it loads). One that has not is a static binary, a program that
 * dropped the shim from its environment, or a node started without it (ZKLAB_CLOCK=off, no C compiler); a Go
 * program maps it yet reads the clock past libc. Refused with one line, naming the process and why.
 */
export function refuseUnreachable(paths: LabPaths, state: LabState, node: string, clockFile: string): void {
  const pids = labNode(paths, node, state)
    .pids()
    .filter((pid) => {
      const s = processState(pid);
      return s !== undefined && s !== 'Z';
    });
  if (pids.length === 0)
    throw new UsageError(`${node} is not running: a clock fault would act on nothing`, 'name a running node');
  for (const pid of pids) {
    const why = unreachable(pid, clockFile);
    if (why === undefined) continue;
    const program = cmdlineOf(pid)?.[0] ?? `pid ${pid}`;
    throw new UsageError(`${node}'s clock cannot be faked: ${program} (pid ${pid}) ${why.what}`, why.hint);
  }
}

interface Why {
  readonly what: string;
  readonly hint: string;
}

function unreachable(pid: number, clockFile: string): Why | undefined {
  const elf = elfFacts(`/proc/${pid}/exe`);
  if (elf?.go)
    return {
      what: 'is a Go program, which reads the clock itself, past libc',
      hint: 'clock faults reach programs that read the clock through libc (JVM, Node, Python, C)',
    };
  let maps: string;
  try {
    maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  if (maps.includes(clockFile)) return undefined;
  if (elf && !elf.dynamic)
    return {
      what: 'is a static binary: it loads no preloaded library',
      hint: 'clock faults reach dynamically linked programs that read the clock through libc',
    };
  const env = environ(pid);
  if (env.get('ZKLAB_CLOCK') === 'off' || !env.has('ZKLAB_CLOCK_FILE'))
    return {
      what: 'was started without the clock shim (ZKLAB_CLOCK=off, or no C compiler when it started)',
      hint: 'start the node again without ZKLAB_CLOCK=off (`zklab doctor` says whether clock faults are available)',
    };
  return {
    what: 'has not loaded the clock shim (it was started with another LD_PRELOAD, or it changed its environment)',
    hint: 'clock faults reach programs that keep the LD_PRELOAD their node is started with',
  };
}

/** A process's environment by name. */
function environ(pid: number): Map<string, string> {
  return new Map(
    environOf(pid)
      .filter((kv) => kv.includes('='))
      .map((kv): [string, string] => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}
