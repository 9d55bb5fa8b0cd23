/**
 * What a fault acts on: the whole node (a machine crash, a frozen VM: the program and every process it started,
 * however it detached), or the program's own process group only (an agent crash, an OOM kill of the agent: what it
 * daemonized lives on). A server's node is its JVM: both scopes act on the same process.
 */
export type FaultScope = 'node' | 'process';
export const FAULT_SCOPES: readonly FaultScope[] = ['node', 'process'];
export const DEFAULT_SCOPE: FaultScope = 'node';

export const isFaultScope = (v: unknown): v is FaultScope => FAULT_SCOPES.includes(v as FaultScope);

/** What each scope means, for help text and errors alike. */
export const SCOPE_WORDS = 'node (default: everything it started) or process (its program alone; daemons live on)';
