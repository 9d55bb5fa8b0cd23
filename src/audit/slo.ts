import { formatDuration, parseDuration } from '../duration.js';
import { UsageError } from '../errors.js';

/**
 * What the card grades by. `failoverMs` always (its default is written on the card); churn and herd are reported
 * and graded only when the user bounds them.
 */
export interface Slo {
  readonly failoverMs: number;
  /** Where the failover bound came from, for the card: "3 × session timeout" or "--slo". */
  readonly failoverFrom: string;
  /** Leader changes beyond the ones a fault forces. */
  readonly churn?: number;
  /** Contenders notified per leader death. */
  readonly herd?: number;
}

export const SLO_KEYS = ['failover', 'churn', 'herd'] as const;
const EXAMPLE = 'e.g. --slo failover=10s,churn=0';

/** The SLO a `--slo` text and the contenders' session timeout give: failover within 3 session timeouts unless said. */
export function parseSlo(text: string | undefined, sessionMs: number): Slo {
  const slo: { failoverMs: number; failoverFrom: string; churn?: number; herd?: number } = {
    failoverMs: 3 * sessionMs,
    failoverFrom: `3 × session timeout (${formatDuration(sessionMs)})`,
  };
  if (text === undefined) return slo;
  for (const part of text.split(',')) {
    const [key, value, ...rest] = part.split('=');
    if (!key || value === undefined || value === '' || rest.length > 0)
      throw new UsageError(`--slo ${text}: "${part}" is not KEY=VALUE`, EXAMPLE);
    if (key === 'failover') {
      const d = parseDuration(value);
      if ('error' in d) throw new UsageError(`--slo failover=${value}: ${d.error}`, EXAMPLE);
      if (d.ms <= 0) throw new UsageError(`--slo failover=${value}: a failover bound must be above 0`, EXAMPLE);
      slo.failoverMs = d.ms;
      slo.failoverFrom = '--slo';
    } else if (key === 'churn' || key === 'herd') {
      if (!/^\d+$/.test(value))
        throw new UsageError(`--slo ${key}=${value}: a count is a whole number, 0 or more`, EXAMPLE);
      slo[key] = Number(value);
    } else {
      throw new UsageError(`--slo ${text}: "${key}" is not a bound the audit knows`, `use ${SLO_KEYS.join(', ')}`);
    }
  }
  return slo;
}
