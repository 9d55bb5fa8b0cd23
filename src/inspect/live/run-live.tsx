import { render } from 'ink';
import { InspectSource } from '../source/inspect-source.js';
import type { InspectTarget } from '../target.js';
import { labActions, noLabActions } from './actions.js';
import { LiveInspect } from './LiveInspect.js';

const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

/**
 * The live view until q, Ctrl-C or the abort signal: on the terminal's alternate screen, so quitting gives the
 * shell back exactly as it was. Resolves once the view is unmounted and the source has closed everything.
 */
export async function runLiveInspect(target: InspectTarget, signal: AbortSignal): Promise<void> {
  const source = InspectSource.start({ target });
  const actions = target.lab ? labActions(target.lab, target.path) : noLabActions;
  const stdout = process.stdout;
  stdout.write(ENTER_ALT_SCREEN);
  const app = render(<LiveInspect feed={source} actions={actions} />, {
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const onAbort = (): void => app.unmount();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await app.waitUntilExit();
  } finally {
    signal.removeEventListener('abort', onAbort);
    app.unmount();
    stdout.write(LEAVE_ALT_SCREEN);
    await source.stop();
  }
}
