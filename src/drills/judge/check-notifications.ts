import { formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import type { History } from './history.js';
import { formatToken } from '../../lab/fenced-resource.js';
import { normalReleases } from './lock-holds.js';
import { z } from 'zod';
import { strict } from '../core/zod-helpers.js';
import { type Checker, needsLock } from './checker.js';

interface ReleaseWake {
  readonly holder: string;
  readonly token: number;
  readonly t: number;
  /** The other contenders that heard of something between this release and the next, by name. */
  readonly woken: readonly string[];
  /** Their `notified` events, every one counted. */
  readonly notified: number;
}

/**
 * For each normal release, the other contenders notified after it, up to and including the next normal release (or
 * the end): the window (t_release, t_next_release]. A holder logs its release before it sends the delete
 * (see NORMAL_RELEASE), so every notification the delete causes comes after the release in the log.
 */
function releaseWakes(h: History): ReleaseWake[] {
  const releases = normalReleases(h);
  return releases.map((r, k) => {
    const to = releases[k + 1]?.t ?? h.end;
    const heard = h.events.filter((e) => e.event === 'notified' && e.id !== r.id && e.t > r.t && e.t <= to);
    return {
      holder: r.id,
      token: r.token,
      t: r.t,
      woken: [...new Set(heard.map((e) => e.id))],
      notified: heard.length,
    };
  });
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * How many contenders each release of the lock wakes: 1 for a queue in which each waiter watches its predecessor,
 * everyone waiting for a herd watching the lock's children. Fails when the mean is above `max` or below `min`, and
 * when no lock was released: nothing was shown.
 */
export function checkNotificationsPerRelease(
  h: History,
  options: { readonly max?: number; readonly min?: number } = {},
): CheckResult {
  const wakes = releaseWakes(h);
  const n = wakes.length;
  const mean = n === 0 ? null : round(wakes.reduce((s, w) => s + w.woken.length, 0) / n);
  const meanNotified = n === 0 ? null : round(wakes.reduce((s, w) => s + w.notified, 0) / n);
  const most = n === 0 ? null : Math.max(...wakes.map((w) => w.woken.length));
  const measurements = [
    { name: 'normal releases', value: n, unit: 'count' as const },
    { name: 'mean contenders woken per release', value: mean, unit: 'count' as const },
    { name: 'max contenders woken per release', value: most, unit: 'count' as const },
    { name: 'mean notifications per release', value: meanNotified, unit: 'count' as const },
  ];
  if (mean === null) {
    const message = 'no lock was released (reason done): nothing to judge';
    return {
      name: 'notificationsPerRelease',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements,
    };
  }
  const bounds = [
    options.min !== undefined ? `min ${options.min}` : '',
    options.max !== undefined ? `max ${options.max}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const problems = [
    options.max !== undefined && mean > options.max ? `above the bound ${options.max}` : '',
    options.min !== undefined && mean < options.min ? `below the bound ${options.min}` : '',
  ].filter(Boolean);
  const details: CheckDetail[] = problems.map((p) => ({
    level: 'violation',
    message: `a release woke ${mean} contender(s) on average, ${p}`,
  }));
  const worst = wakes.find((w) => w.woken.length === most);
  if (worst) {
    const woken = worst.woken.length > 0 ? ` (${worst.woken.join(', ')})` : '';
    details.push({
      level: 'info',
      t: worst.t,
      message:
        `most woken by one release: ${worst.woken.length} contender(s)${woken}, ${worst.notified} notification(s), ` +
        `after ${worst.holder} released token ${formatToken(worst.token)} at ${formatOffset(worst.t, h.start)}`,
    });
  }
  return {
    name: 'notificationsPerRelease',
    passed: problems.length === 0,
    summary: `${n} release(s) woke ${mean} contender(s) on average, at most ${most}${bounds ? ` (${bounds})` : ''}`,
    details,
    measurements,
  };
}

const options = strict({ max: z.number().min(0).optional(), min: z.number().min(0).optional() });

export const notificationsPerReleaseChecker: Checker<'notificationsPerRelease', typeof options> = {
  name: 'notificationsPerRelease',
  options,
  needs: needsLock,
  refuse: ({ min, max }) =>
    min !== undefined && max !== undefined && min > max
      ? { field: 'min', message: `${min} is above max ${max} (no mean can pass; lower min or raise max)` }
      : undefined,
  run: (h, opts) => checkNotificationsPerRelease(h, opts),
};
