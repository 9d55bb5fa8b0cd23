import { Text } from 'ink';

export interface FooterProps {
  readonly width: number;
  /** The outcome of the last action, e.g. "killed c3"; shown before the keys. */
  readonly message?: string | null;
}

export const FOOTER_KEYS = '↑/↓ select  k kill  t terminate  p pause/resume  i isolate/heal  s spawn  q quit';
const COMPACT_KEYS = '↑↓ k t p i s q';

export function Footer({ width, message = null }: FooterProps) {
  const keys = width >= FOOTER_KEYS.length + (message ? message.length + 3 : 0) ? FOOTER_KEYS : COMPACT_KEYS;
  return (
    <Text wrap="truncate-end">
      {message && <Text color="cyan">{`${message} · `}</Text>}
      <Text dimColor>{keys}</Text>
    </Text>
  );
}
