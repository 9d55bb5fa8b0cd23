/**
 * The lease of a lab made for one command. The owner starts this process with a pipe on its stdin and never
 * writes to it; the kernel closes the pipe when the owner exits, however it exits (SIGKILL included), and then
 * this process clears the lab: every marked process stopped, the directory removed if the owner made it.
 * Run as `node dist/lab/warden.js --zklab-warden=DIR [--remove-dir]`; the marker is not the lab's own, so that
 * `ensemble down` inside the owner's life leaves the warden alone.
 */
import { LabPaths } from './paths.js';
import { clearLab } from './clear.js';

const WARDEN_MARKER = '--zklab-warden=';
const root = process.argv.find((a) => a.startsWith(WARDEN_MARKER))?.slice(WARDEN_MARKER.length);
if (!root) {
  process.stderr.write(`usage: warden.js ${WARDEN_MARKER}DIR [--remove-dir]\n`);
  process.exit(2);
}
const removeDir = process.argv.includes('--remove-dir');

// Detached from the owner's terminal: a Ctrl-C there is the owner's to handle, and the owner's exit is ours.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);

let clearing = false;
const clear = (): void => {
  if (clearing) return;
  clearing = true;
  clearLab(new LabPaths(root), { removeDir }).finally(() => process.exit(0));
};
process.stdin.on('end', clear);
process.stdin.on('close', clear);
process.stdin.on('error', clear);
process.stdin.resume();
