import type { JobStream } from './job-stream.js';

/** A jobs step streaming in the background, and where it came from (for messages). */
export interface BackgroundStream {
  readonly index: string;
  readonly line: number;
  readonly description: string;
  readonly count: number;
  readonly stream: JobStream;
}

/** Whether a jobs stream is still submitting. */
export function streaming(run: { readonly streams: readonly BackgroundStream[] }): boolean {
  return run.streams.some((s) => s.stream.active);
}

/**
 * Before the run is judged: waits for every stream to submit all it was asked to (`finish`), or stops them (the run
 * broke, or is being torn down). A stream whose submission failed breaks the run, as a failed step would.
 */
export async function settleStreams(
  run: { readonly streams: readonly BackgroundStream[]; broke?: string },
  finish: boolean,
  say: (message: string) => void = () => undefined,
): Promise<void> {
  for (const s of run.streams) {
    if (finish && s.stream.active) say(`waiting for step ${s.index} (${s.description}) to submit the rest`);
    const end = await (finish ? s.stream.done : s.stream.stop());
    if (end.error !== undefined && run.broke === undefined) {
      const step = `step ${s.index} (line ${s.line}) ${s.description}`;
      run.broke = `${step}: submitted ${end.submitted} of ${s.count}, then: ${end.error}`;
    }
  }
}
