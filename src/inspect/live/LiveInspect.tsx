import { useApp, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { ZklabError } from '../../errors.js';
import type { Snapshot } from '../snapshot.js';
import type { SnapshotFeed } from '../source/inspect-source.js';
import { InspectApp } from '../views/InspectApp.js';
import type { InspectActions } from './actions.js';
import { moveSelection, NO_SELECTION, type Selection, selectedRow } from './selection.js';

export interface LiveInspectProps {
  readonly feed: SnapshotFeed;
  readonly actions: InspectActions;
}

function errorLine(verb: string, e: unknown): string {
  const message = e instanceof Error ? e.message.split('\n')[0]! : String(e);
  const hint = e instanceof ZklabError && e.hint ? ` (${e.hint.split('\n')[0]})` : '';
  return `${verb} failed: ${message}${hint}`;
}

const terminalSize = (stdout: NodeJS.WriteStream) => ({ width: stdout.columns || 80, height: stdout.rows || 24 });

function useTerminalSize(): { readonly width: number; readonly height: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => terminalSize(stdout));
  useEffect(() => {
    const onResize = (): void => setSize(terminalSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * The live `zklab inspect`: InspectApp fed by a snapshot source, with the keys of free play. Actions run the lab's
 * services; their outcome, or their error, is the footer's one-line message.
 */
export function LiveInspect({ feed, actions }: LiveInspectProps) {
  const { exit } = useApp();
  const { width, height } = useTerminalSize();
  const [snapshot, setSnapshot] = useState(() => feed.current());
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [message, setMessage] = useState<string | null>(null);
  const mounted = useRef(true);
  // Keys can arrive faster than renders ("↓ k" in one read): handlers work on the latest values, not a render's.
  const latest = useRef({ snapshot, selection });

  useEffect(() => {
    mounted.current = true;
    const show = (next: Snapshot): void => {
      latest.current.snapshot = next;
      setSnapshot(next);
    };
    show(feed.current());
    const off = feed.subscribe(show);
    return () => {
      mounted.current = false;
      off();
    };
  }, [feed]);

  const select = (next: Selection): void => {
    latest.current.selection = next;
    setSelection(next);
  };

  const run = (verb: string, action: (id: string) => Promise<string>, needsContender = true): void => {
    const { snapshot: now, selection: sel } = latest.current;
    const row = selectedRow(now, sel);
    // A key acts on the contender its row shows, or on nobody: never on a neighbour of one that went.
    const id = row?.contender ?? null;
    if (needsContender && id === null) {
      const node = row?.kind === 'node' ? now.nodes[row.index] : undefined;
      setMessage(
        node
          ? `${node.name} belongs to no zklab contender: select a contender's znode with ↑/↓`
          : sel.contender !== null
            ? `${sel.contender} is gone (its process ended and it owns no znode): select another with ↑/↓`
            : 'select a contender with ↑/↓ first',
      );
      return;
    }
    setMessage(id && needsContender ? `${verb} ${id}…` : `${verb}…`);
    action(id ?? '')
      .then(
        (done) => mounted.current && setMessage(done),
        (e: unknown) => mounted.current && setMessage(errorLine(verb, e)),
      )
      .finally(() => feed.refresh());
  };

  useInput((input, key) => {
    if (key.upArrow || key.downArrow) {
      select(moveSelection(latest.current.snapshot, latest.current.selection, key.upArrow ? -1 : 1));
    } else if (input === 'q' || (key.ctrl && input === 'c')) {
      exit();
    } else if (input === 'k') {
      run('killing', (id) => actions.kill(id, 'SIGKILL'));
    } else if (input === 't') {
      run('terminating', (id) => actions.kill(id, 'SIGTERM'));
    } else if (input === 'p') {
      run('pausing/resuming', (id) => actions.togglePause(id));
    } else if (input === 'i') {
      run('isolating/healing', (id) => actions.toggleIsolate(id));
    } else if (input === 's') {
      run('spawning', () => actions.spawn(), false);
    }
  });

  const selected = selectedRow(snapshot, selection);
  // One row short of the terminal: a frame as tall as the screen makes Ink clear and repaint it on every update.
  return (
    <InspectApp
      snapshot={snapshot}
      width={width}
      height={Math.max(1, height - 1)}
      selected={selected}
      message={message}
    />
  );
}
