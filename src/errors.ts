/** Errors a user can act on. Anything else that reaches the CLI shim is a bug. */
export abstract class ZklabError extends Error {
  abstract readonly exitCode: number;
  constructor(
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad input: nothing was changed. Exit code 2. */
export class UsageError extends ZklabError {
  readonly exitCode = 2;
}

/** The machine lacks something we need (Java, ZooKeeper, a free port, a writable directory). Exit code 2. */
export class EnvironmentError extends ZklabError {
  readonly exitCode = 2;
}

/** A process we started or talked to failed. Exit code 1; `cause` keeps the underlying error. */
export class ProcessError extends ZklabError {
  readonly exitCode = 1;
}

/** A drill or check ran and found the system misbehaving. Exit code 1. */
export class CheckFailedError extends ZklabError {
  readonly exitCode = 1;
}

export function formatError(err: unknown, verbose: boolean): { text: string; exitCode: number } {
  if (err instanceof ZklabError) {
    const lines = [`zklab: ${err.message}`];
    if (err.hint) lines.push(`  ${err.hint}`);
    if (verbose) {
      lines.push(err.stack ?? '');
      if (err.cause instanceof Error) lines.push(`caused by: ${err.cause.stack ?? err.cause.message}`);
    } else if (err instanceof ProcessError && err.cause instanceof Error) {
      lines.push(`  cause: ${err.cause.message.split('\n')[0]}`);
    }
    return { text: lines.join('\n'), exitCode: err.exitCode };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  const text = verbose
    ? `zklab: unexpected failure: ${e.stack ?? e.message}`
    : `zklab: unexpected failure: ${e.message}\n  (run again with --verbose for the stack)`;
  return { text, exitCode: 1 };
}
