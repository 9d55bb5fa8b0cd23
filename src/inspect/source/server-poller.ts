import { fourLetterWord, parseMntr, parseSrvr, parseWchc, parseWchp, type Srvr } from '../../zk/four-letter.js';
import { isServing } from '../../ensemble/quorum.js';
import type { ServerInput } from '../snapshot-input.js';

export interface ServerTarget {
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

/** What the lab knows of a server's process without asking it: gone, or frozen by SIGSTOP. */
export type ServerProcessFact = 'running' | 'paused' | 'gone';

export interface ServerProbe {
  readonly target: ServerTarget;
  readonly input: ServerInput;
  /** srvr answered with a mode. */
  readonly answered: boolean;
  /** Why it did not, in a few words ("connection refused", "timed out", "process not running"). */
  readonly error: string | null;
  /** It serves clients, or may (its srvr is not whitelisted): worth trying a session on. */
  readonly maySession: boolean;
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  return (e as Error).message.includes('timed out') ? 'timed out' : (code ?? (e as Error).message);
}

async function optional<T>(
  word: string,
  t: ServerTarget,
  parse: (text: string) => T,
  timeoutMs: number,
): Promise<T | undefined> {
  try {
    return parse(await fourLetterWord(t.port, word, timeoutMs, t.host));
  } catch {
    return undefined;
  }
}

/**
 * One round of srvr, then (unless `previous` is given to reuse) mntr, wchp and wchc from a serving server.
 * Never rejects.
 */
export async function probeServer(
  t: ServerTarget,
  fact: ServerProcessFact | undefined,
  timeoutMs = 800,
  previous?: ServerProbe,
): Promise<ServerProbe> {
  if (fact === 'gone')
    return {
      target: t,
      input: { name: t.name, srvr: { mode: 'down' } },
      answered: false,
      error: 'process not running',
      maySession: false,
    };
  // A stopped JVM accepts connections (the kernel does) but never answers: do not wait for it.
  if (fact === 'paused') {
    return {
      target: t,
      input: { name: t.name, srvr: { mode: 'not-serving' }, paused: true },
      answered: false,
      error: 'paused (SIGSTOP)',
      maySession: false,
    };
  }
  let text: string;
  try {
    text = await fourLetterWord(t.port, 'srvr', timeoutMs, t.host);
  } catch (e) {
    const why = reason(e);
    return {
      target: t,
      input: { name: t.name, srvr: { mode: why === 'timed out' ? 'not-serving' : 'down' } },
      answered: false,
      error: why,
      maySession: false,
    };
  }
  const srvr: Srvr = parseSrvr(text);
  if (!isServing(srvr.mode)) {
    const unlisted = text.includes('not in the whitelist');
    return {
      target: t,
      input: { name: t.name, srvr },
      answered: true,
      error: unlisted ? 'srvr is not whitelisted' : 'not serving requests',
      maySession: unlisted,
    };
  }
  if (previous?.answered && previous.error === null) {
    const { mntr, wchp, wchc } = previous.input;
    return {
      target: t,
      input: { name: t.name, srvr, mntr, wchp, wchc },
      answered: true,
      error: null,
      maySession: true,
    };
  }
  const [mntr, wchp, wchc] = await Promise.all([
    optional('mntr', t, parseMntr, timeoutMs),
    optional('wchp', t, parseWchp, timeoutMs),
    optional('wchc', t, parseWchc, timeoutMs),
  ]);
  return { target: t, input: { name: t.name, srvr, mntr, wchp, wchc }, answered: true, error: null, maySession: true };
}

export interface ServerPollerOptions {
  readonly targets: () => readonly ServerTarget[];
  readonly processFact?: (name: string) => ServerProcessFact | undefined;
  /** Runs first in every round (re-reading the lab's process table, so processFact is current). */
  readonly before?: () => void;
  /** Whether this round asks for the watch lists too (mntr, wchp, wchc); every round when absent. */
  readonly wantWatches?: () => boolean;
  readonly onUpdate: () => void;
  readonly intervalMs?: number;
}

/**
 * Asks every server for srvr, mntr, wchp and wchc, one round at a time and at most once per interval (1 s): the
 * 4lw are cheap, but a round per change would make inspect a load generator of its own.
 */
export class ServerPoller {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  private stopped = false;
  private lastStart = 0;
  probes: readonly ServerProbe[] = [];
  rounds = 0;

  constructor(private readonly opts: ServerPollerOptions) {}

  private get intervalMs(): number {
    return this.opts.intervalMs ?? 1000;
  }

  start(): void {
    this.schedule(0);
  }

  /** The next round as soon as the interval allows (after a key action, say). */
  soon(): void {
    if (this.inFlight || this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(Math.max(0, this.lastStart + this.intervalMs - Date.now()));
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastStart = Date.now();
      this.inFlight = this.round().finally(() => {
        this.inFlight = null;
        this.schedule(Math.max(0, this.lastStart + this.intervalMs - Date.now()));
      });
    }, delayMs);
  }

  private async round(): Promise<void> {
    this.opts.before?.();
    const targets = this.opts.targets();
    const watches = this.opts.wantWatches?.() ?? true;
    const previous = new Map(this.probes.map((p) => [p.target.name, p]));
    const probes = await Promise.all(
      targets.map((t) =>
        probeServer(t, this.opts.processFact?.(t.name), 800, watches ? undefined : previous.get(t.name)),
      ),
    );
    if (this.stopped) return;
    this.probes = probes;
    this.rounds++;
    this.opts.onUpdate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }
}

/** What a round tells a person, without the counters that move on every call (latency, packets, uptime). */
export function probesFingerprint(probes: readonly ServerProbe[]): string {
  const entries = (m: ReadonlyMap<string, readonly string[]> | undefined) => (m ? [...m] : null);
  return JSON.stringify(
    probes.map((p) => [
      p.input.name,
      p.input.srvr,
      p.input.paused ?? false,
      p.error,
      p.input.mntr?.get('zk_watch_count') ?? null,
      entries(p.input.wchp),
      entries(p.input.wchc),
    ]),
  );
}
