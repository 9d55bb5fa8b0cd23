/**
 * The lease of a lab made for one command. The owner starts this process with a pipe on its stdin. When the
 * owner has cleared the lab itself it writes RELEASED and closes the pipe, and this process just leaves. If the
 * pipe closes without it, the owner died (the kernel closes the pipe however a process ends, SIGKILL included),
 * and this process clears the lab: every marked process stopped, the directory removed if the owner made it.
 * Run as `node dist/lab/warden.js --zklab-warden=DIR [--remove-dir]`.
 */
import { clearLab } from './clear.js';
import { RELEASED } from './owner.js';
import { LabPaths, WARDEN_MARKER_PREFIX } from './paths.js';

const root = process.argv.find((a) => a.startsWith(WARDEN_MARKER_PREFIX))?.slice(WARDEN_MARKER_PREFIX.length);
if (!root) {
  process.stderr.write(`usage: warden.js ${WARDEN_MARKER_PREFIX}DIR [--remove-dir]\n`);
  process.exit(2);
}
const removeDir = process.argv.includes('--remove-dir');

// Detached from the owner's terminal: a Ctrl-C there is the owner's to handle, and the owner's exit is ours.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);

let heard = '';
let ended = false;
const end = (): void => {
  if (ended) return;
  ended = true;
  // Released: the owner cleared the lab, and the directory may already be a new owner's.
  if (heard.startsWith(RELEASED)) process.exit(0);
  clearLab(new LabPaths(root), { removeDir, warden: process.pid }).finally(() => process.exit(0));
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => (heard += chunk));
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
