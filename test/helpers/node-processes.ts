import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live processes whose environment says they belong to a node of a lab whose root starts with `prefix`
 * (`ZKLAB_NODE=<root>:<node>`, inherited through double forks and setsid), read from /proc by the test itself: a
 * node's daemons carry no marker on their command line.
 */
export function nodeProcessesUnder(prefix: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (env.some((kv) => kv.startsWith(`ZKLAB_NODE=${prefix}`))) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Live processes (zombies and this one left out) whose command line `match` accepts, read from /proc. */
export function liveProcesses(match: (args: readonly string[]) => boolean): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (match(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0'))) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** Live processes whose command line names `text` (a lab's directory on a JVM's, say). */
export const processesNaming = (text: string): number[] => liveProcesses((args) => args.join('\0').includes(text));
