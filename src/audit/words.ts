import { formatDuration } from '../duration.js';
import type { AuditCard } from './card.js';

/** A figure of the card: a duration, "never" when the thing never happened, "-" when not measured. */
export function cardFigure(ms: number | null | undefined): string {
  if (ms === undefined) return '-';
  return ms === null ? 'never' : formatDuration(ms);
}

/** What was audited and by which bounds, in one line. */
export function subjectLine(card: AuditCard): string {
  const s = card.subject;
  const bounds = [
    `failover within ${formatDuration(card.slo.failoverMs)} (${card.slo.failoverFrom})`,
    ...(card.slo.churn === undefined ? [] : [`churn at most ${card.slo.churn}`]),
    ...(card.slo.herd === undefined ? [] : [`herd at most ${card.slo.herd}`]),
  ];
  return (
    `${s.members} members, ${s.servers} servers, net ${s.net}; election ${s.path}, leader by ${s.leaderRule}; ` +
    `session ${formatDuration(s.sessionTimeoutMs)}; ${s.probe ? `probe ${s.probe}` : 'no probe'}; ${bounds.join(', ')}`
  );
}
