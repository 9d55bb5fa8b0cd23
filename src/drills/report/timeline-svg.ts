import { formatDuration } from '../../duration.js';
import type { History } from '../judge/history.js';
import { escapeHtml as esc } from './html-escape.js';
import { faultRuleOf } from '../judge/fault-windows.js';
import { laneSegments } from './segments.js';
import type { DrillContenderState } from '../core/types.js';

export const STATE_COLOURS: Readonly<Record<DrillContenderState, string>> = {
  follower: '#9db4c8',
  leader: '#2e9d4f',
  paused: '#f0a830',
  frozen: '#8e6bbf',
  dead: '#555555',
};

/** A fault window's colour: its rule's (src/faults/kinds/). */
const faultColour = (kind: string): string => faultRuleOf(kind)?.colour ?? '#7f7f7f';

/** A node that acts as the leader by its probe (its data plane): a strip along the lane's foot. */
export const ACTING_COLOUR = '#c2185b';

const WIDTH = 1000;
const LEFT = 70;
const RIGHT = 20;
const LANE = 22;
const GAP = 8;
const BAND_LABEL_ROWS = 3;
const ROW = 14;
const MARKER_ROWS = 4;

export interface TimelineMarker {
  readonly t: number;
  readonly label: string;
  readonly title: string;
}

/** A tick spacing giving 5 to 12 ticks. */
function tickStep(span: number): number {
  for (const s of [100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000]) {
    if (span / s <= 12) return s;
  }
  return 600_000;
}

/**
 * One lane per contender (follower / leader / paused / frozen / dead), a thin leader-coloured strip where a
 * contender still believed it led without leading visibly (a frozen or dead-to-the-world leader), a strip along the
 * lane's foot where its probe said its node acted as the leader (a data plane outliving its dead agent shows there), the lab's faults
 * as labelled translucent bands across all lanes, step markers below the axis, and a legend.
 */
export function renderTimelineSvg(h: History, markers: readonly TimelineMarker[] = []): string {
  const span = Math.max(h.end - h.start, 1);
  const plot = WIDTH - LEFT - RIGHT;
  const x = (t: number) => LEFT + ((Math.min(Math.max(t, h.start), h.end) - h.start) / span) * plot;
  const top = BAND_LABEL_ROWS * ROW + 6;
  const lanesBottom = top + h.contenders.length * (LANE + GAP);
  const axisY = lanesBottom + 4;
  const legendY = axisY + 38 + MARKER_ROWS * 10;
  const height = legendY + 40;
  const out: string[] = [];
  out.push(
    `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" ` +
      `viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
  );

  h.contenders.forEach((c, i) => {
    const y = top + i * (LANE + GAP);
    out.push(`<g class="lane" data-contender="${esc(c)}">`);
    out.push(`<text x="${LEFT - 8}" y="${y + LANE / 2 + 4}" text-anchor="end">${esc(c)}</text>`);
    out.push(`<rect x="${LEFT}" y="${y}" width="${plot}" height="${LANE}" fill="#f4f4f4"/>`);
    for (const s of laneSegments(h, c)) {
      const w = Math.max(x(s.end) - x(s.start), 1);
      const belief = s.believesLeader && s.state !== 'leader' ? ' (believes it leads)' : '';
      const title = `${c} ${s.state}${belief}, ${formatDuration(s.end - s.start)}`;
      out.push(
        `<rect class="seg seg-${s.state}" x="${x(s.start).toFixed(1)}" y="${y}" width="${w.toFixed(1)}" ` +
          `height="${LANE}" fill="${STATE_COLOURS[s.state]}"><title>${esc(title)}</title></rect>`,
      );
      if (s.believesLeader && s.state !== 'leader') {
        out.push(
          `<rect class="seg-belief" x="${x(s.start).toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="4" ` +
            `fill="${STATE_COLOURS.leader}"/>`,
        );
      }
    }
    for (const a of h.acting.filter((i) => i.contender === c)) {
      const w = Math.max(x(a.end) - x(a.start), 1);
      const title = `${c} acts as leader by its probe, ${formatDuration(a.end - a.start)}`;
      out.push(
        `<rect class="seg-acting" x="${x(a.start).toFixed(1)}" y="${y + LANE - 5}" width="${w.toFixed(1)}" ` +
          `height="5" fill="${ACTING_COLOUR}"><title>${esc(title)}</title></rect>`,
      );
    }
    out.push('</g>');
  });

  h.faults.forEach((f, i) => {
    const x0 = x(f.start);
    const w = Math.max(x(f.end) - x0, 3);
    const labelY = ((i % BAND_LABEL_ROWS) + 1) * ROW - 2;
    const colour = faultColour(f.kind);
    out.push(
      `<g class="band band-${f.kind}"><rect x="${x0.toFixed(1)}" y="${top - 4}" width="${w.toFixed(1)}" ` +
        `height="${lanesBottom - top + 4}" fill="${colour}" fill-opacity="0.2" stroke="${colour}" stroke-opacity="0.6">` +
        `<title>${esc(`${f.label}, ${formatDuration(f.end - f.start)}`)}</title></rect>` +
        `<text x="${x0.toFixed(1)}" y="${labelY}" fill="${colour}">${esc(f.label)}</text></g>`,
    );
  });

  out.push(`<line x1="${LEFT}" y1="${axisY}" x2="${LEFT + plot}" y2="${axisY}" stroke="#333"/>`);
  const step = tickStep(span);
  for (let d = 0; d <= span; d += step) {
    const tx = x(h.start + d);
    out.push(`<line x1="${tx.toFixed(1)}" y1="${axisY}" x2="${tx.toFixed(1)}" y2="${axisY + 4}" stroke="#333"/>`);
    out.push(`<text x="${tx.toFixed(1)}" y="${axisY + 15}" text-anchor="middle">${esc(formatDuration(d))}</text>`);
  }
  // Steps close together in time get their labels on staggered rows so that they stay legible.
  const rowEnds: number[] = [];
  for (const m of markers) {
    const px = x(m.t);
    const half = (m.label.length * 5.5) / 2 + 2;
    let row = rowEnds.findIndex((end) => px - half > end);
    if (row === -1) row = rowEnds.length < MARKER_ROWS ? rowEnds.length : rowEnds.indexOf(Math.min(...rowEnds));
    rowEnds[row] = px + half;
    const mx = px.toFixed(1);
    out.push(
      `<g class="marker"><path d="M${mx},${axisY + 20} l-4,8 h8 z" fill="#333"/>` +
        `<text x="${mx}" y="${axisY + 38 + row * 10}" text-anchor="middle" font-size="9">${esc(m.label)}</text>` +
        `<title>${esc(m.title)}</title></g>`,
    );
  }

  out.push(`<g class="legend">`);
  let lx = LEFT;
  const entry = (cls: string, colour: string, label: string) => {
    out.push(
      `<rect class="${cls}" x="${lx}" y="${legendY}" width="12" height="12" fill="${colour}"/>` +
        `<text x="${lx + 16}" y="${legendY + 10}">${esc(label)}</text>`,
    );
    lx += 22 + label.length * 6.5;
  };
  for (const [state, colour] of Object.entries(STATE_COLOURS)) entry(`legend-${state}`, colour, state);
  entry('legend-belief', STATE_COLOURS.leader, 'believes it leads (strip)');
  if (h.acting.length > 0) entry('legend-acting', ACTING_COLOUR, 'probe: acts as leader (foot strip)');
  lx = LEFT;
  const kinds = [...new Set(h.faults.map((f) => f.kind))];
  for (const kind of kinds) {
    out.push(
      `<rect x="${lx}" y="${legendY + 18}" width="12" height="12" fill="${faultColour(kind)}" fill-opacity="0.3"/>` +
        `<text x="${lx + 16}" y="${legendY + 28}">${esc(kind)}</text>`,
    );
    lx += 22 + kind.length * 6.5;
  }
  out.push('</g></svg>');
  return out.join('\n');
}
