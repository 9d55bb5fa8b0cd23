import { Text } from 'ink';

export interface PaneTitleProps {
  readonly title: string;
  readonly width: number;
}

/** "── title ─────…" across the pane: one line, cheaper than a border box (which costs two rows and two columns). */
export function PaneTitle({ title, width }: PaneTitleProps) {
  const head = `── ${title} `;
  return (
    <Text bold dimColor wrap="truncate-end">
      {head + '─'.repeat(Math.max(0, width - head.length))}
    </Text>
  );
}
