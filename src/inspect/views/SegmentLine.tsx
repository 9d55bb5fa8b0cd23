import chalk from 'chalk';
import type { ForegroundColorName } from 'chalk';
import { Text } from 'ink';
import type { Segment } from './tree-row.js';

export interface SegmentLineProps {
  readonly segments: readonly Segment[];
  /** Columns available: the plain text is cut to fit before styling. */
  readonly width: number;
  readonly inverse?: boolean;
}

/** Cuts runs to a total plain width, the last visible character becoming "…" when anything was cut. */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let room = Math.max(0, width);
  for (let i = 0; i < segments.length && room > 0; i++) {
    const s = segments[i]!;
    const rest = segments.slice(i + 1).some((x) => x.text.trimEnd().length > 0);
    if (s.text.length < room || (s.text.length === room && !rest)) {
      out.push(s);
      room -= s.text.length;
    } else {
      out.push({ ...s, text: `${s.text.slice(0, room - 1)}…` });
      room = 0;
    }
  }
  return out;
}

function styled(s: Segment): string {
  let c = chalk;
  if (s.color) c = c[s.color as ForegroundColorName] ?? c;
  if (s.bold) c = c.bold;
  if (s.dim) c = c.dim;
  return c === chalk ? s.text : c(s.text);
}

/**
 * One terminal line of styled runs. The runs are styled here and handed to Ink as a single string: a row of
 * nested <Text> elements costs Ink several times more to lay out, and a tree pane renders dozens of rows per frame.
 */
export function SegmentLine({ segments, width, inverse = false }: SegmentLineProps) {
  return (
    <Text wrap="truncate-end" inverse={inverse}>
      {fitSegments(segments, width).map(styled).join('')}
    </Text>
  );
}
