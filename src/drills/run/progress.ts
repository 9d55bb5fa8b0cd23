import { formatDuration, formatOffset } from '../../duration.js';
import type { StepResult } from '../judge/result.js';

/** What a running drill reports as it goes: the lab being set up and torn down, and each step as it ends. */
export type DrillProgress =
  | { readonly kind: 'lab'; readonly t: number; readonly message: string }
  /** `startedAt`: the drill's clock, which step times are shown against. */
  | { readonly kind: 'step'; readonly step: StepResult; readonly startedAt: number };

const OUTCOME: Readonly<Record<StepResult['outcome'], string>> = {
  ok: 'ok',
  failed: 'FAILED',
  timeout: 'TIMEOUT',
  skipped: 'skipped',
};

/** One line per progress report; step times are offsets from the drill's start. */
export function formatProgress(p: DrillProgress): string {
  switch (p.kind) {
    case 'lab':
      return `  ${p.message}`;
    case 'step': {
      const s = p.step;
      const took = s.outcome === 'skipped' ? '' : ` (${formatDuration(s.end - s.start)})`;
      const detail = s.detail ? ` - ${s.detail}` : '';
      const at = formatOffset(s.start, p.startedAt).padStart(7);
      return `  ${at}  ${s.index.padEnd(3)} ${s.description}: ${OUTCOME[s.outcome]}${took}${detail}`;
    }
  }
}
