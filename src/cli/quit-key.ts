/**
 * `q` (or Ctrl-C, which a raw terminal delivers as a key) ends a watch; so does the command's own signal. Reads
 * stdin only while the watch runs, and gives the terminal back as it was.
 */
export function quitOnKey(outer: AbortSignal): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const signal = AbortSignal.any([outer, stop.signal]);
  const stdin = process.stdin;
  const raw = stdin.isTTY === true;
  const onData = (chunk: Buffer) => {
    const keys = chunk.toString();
    if (keys.includes('q') || keys.includes('\u0003')) stop.abort();
  };
  if (raw) stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return {
    signal,
    release: () => {
      stdin.off('data', onData);
      if (raw) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}
