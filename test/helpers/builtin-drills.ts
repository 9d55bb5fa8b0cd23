/** The built-in drills the issue asks for, one per lesson: what `zklab drill list` must show. */
export const BUILTIN_DRILLS = [
  'client-partition',
  'curator-leader-isolated',
  'herd-vs-predecessor-chain',
  'herd-vs-predecessor-herd',
  'join-and-elect',
  'kazoo-leader-isolated',
  'leader-dies-no-herd',
  'mid-chain-death',
  'priority-handover',
  'priority-watchdog',
  'single-file-retry',
  'split-brain',
  'zk-leader-isolation',
  'zombie-leader',
] as const;
