import { delimiter } from 'node:path';
import { UsageError } from '../../errors.js';
import { CURATOR_MAIN_CLASS, compileCuratorLatch, describeCurator, locateCurator } from './curator-runtime.js';
import { KAZOO_SCRIPT, describeKazoo, locateKazoo } from './kazoo-runtime.js';

/**
 * Contenders that are real clients' election recipes rather than zklab's own: Apache Curator's LeaderLatch
 * (CuratorLatch.java) and kazoo's Election (kazoo_election.py). Both take ZKLAB_CONNECT, ZKLAB_ID,
 * ZKLAB_SESSION_TIMEOUT_MS and ZKLAB_PATH from the environment and report `ZKLAB {json}` lines on stdout.
 */
export const ADAPTERS = ['curator-latch', 'kazoo-election'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

/** standard: Curator ends leadership on SUSPENDED (its default); session: only on LOST. */
export const CURATOR_ERROR_POLICIES = ['standard', 'session'] as const;
export type CuratorErrorPolicy = (typeof CURATOR_ERROR_POLICIES)[number];

export interface AdapterCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** What runs it, for logs and `doctor`: e.g. "Curator 5.4.0 on Java 17.0.15 (/usr/bin/java; Debian jars)". */
  readonly runtime: string;
}

/** A small JVM per contender: dozens of them share a laptop with the ensemble. */
export const CURATOR_JVM_FLAGS: readonly string[] = [
  '-Xmx64m',
  '-Xss512k',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Xshare:auto',
];

/**
 * Finds the adapter's runtime (compiling CuratorLatch.java into the cache on first use) and returns how to start
 * one contender. Throws UsageError naming the package to install when the runtime is missing.
 */
export async function prepareAdapter(
  name: AdapterName,
  opts: { curatorErrorPolicy?: CuratorErrorPolicy } = {},
): Promise<AdapterCommand> {
  switch (name) {
    case 'curator-latch': {
      const policy = opts.curatorErrorPolicy ?? 'standard';
      if (!(CURATOR_ERROR_POLICIES as readonly string[]).includes(policy)) {
        throw new UsageError(
          `unknown Curator error policy "${policy}"`,
          `use one of ${CURATOR_ERROR_POLICIES.join(', ')}`,
        );
      }
      const rt = await locateCurator();
      const classes = await compileCuratorLatch(rt);
      return {
        command: rt.java.bin,
        args: [
          ...CURATOR_JVM_FLAGS,
          '-cp',
          [classes, ...rt.classpath].join(delimiter),
          CURATOR_MAIN_CLASS,
          '--error-policy',
          policy,
        ],
        runtime: describeCurator(rt),
      };
    }
    case 'kazoo-election': {
      const rt = await locateKazoo();
      return { command: rt.python, args: ['-u', KAZOO_SCRIPT], runtime: describeKazoo(rt) };
    }
    default:
      throw new UsageError(`unknown adapter "${String(name)}"`, `use one of ${ADAPTERS.join(', ')}`);
  }
}
