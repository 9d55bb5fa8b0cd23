import type { InspectTarget } from './target.js';

export interface InspectRun {
  readonly target: InspectTarget;
  readonly mode: 'live' | 'once' | 'json';
  readonly signal: AbortSignal;
  readonly out: (text: string) => void;
  /** Columns for --once text. */
  readonly width: number;
}

/**
 * Runs `zklab inspect`. React is loaded only from here on, in its production build unless told otherwise: the
 * development build's checks cost the live view about a third of its CPU for nothing a user sees.
 */
export async function runInspect(run: InspectRun): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  if (run.mode === 'live') {
    // Live mode runs only on a terminal. Ink reads CI / CONTINUOUS_INTEGRATION once, when loaded, and then draws
    // just a final frame; a terminal inside a CI job (or tmux started by one) still deserves the live view.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    const { runLiveInspect } = await import('./live/run-live.js');
    await runLiveInspect(run.target, run.signal);
    return;
  }
  const { inspectOnce } = await import('./once.js');
  await inspectOnce(run.target, { json: run.mode === 'json', width: run.width, signal: run.signal, out: run.out });
}
