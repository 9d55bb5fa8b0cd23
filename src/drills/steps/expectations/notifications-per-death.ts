import { z } from 'zod';
import { strict } from '../../core/zod-helpers.js';
import { herdCounts } from '../../judge/check-herd.js';
import type { ExpectationKind } from './kind.js';

/** Every leader death so far woke at most max other contenders. */
export interface NotificationsPerDeath {
  readonly kind: 'notificationsPerDeath';
  readonly max: number;
}

const schema = strict({ max: z.number().int().min(0) });

export const notificationsPerDeath: ExpectationKind<NotificationsPerDeath, typeof schema> = {
  kind: 'notificationsPerDeath',
  example: 'notificationsPerDeath: { max: 1 }',
  schema,
  build: (v) => [{ kind: 'notificationsPerDeath', max: v.max }],
  describe: (e) => `at most ${e.max} notified per leader death`,
  /** Decides once the last death's count is complete. */
  evaluate(e, ctx) {
    const counts = herdCounts(ctx.history);
    const worst = Math.max(0, ...counts.map((c) => c.notified));
    if (worst > e.max) return { status: 'failed', detail: `a leader death woke ${worst} contenders` };
    if (counts.some((c) => !c.complete)) return { status: 'pending', detail: 'notifications may still arrive' };
    return { status: 'passed', detail: `${counts.length} death(s), at most ${worst} notified` };
  },
};
