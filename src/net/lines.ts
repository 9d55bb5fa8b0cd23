import { StringDecoder } from 'node:string_decoder';

/** Splits a byte stream into lines; refuses a line longer than `maxLine` bytes (a confused or hostile peer). */
export function lineSplitter(
  onLine: (line: string) => void,
  onOverflow: () => void,
  maxLine = 4 << 20,
): (chunk: Buffer) => void {
  const decoder = new StringDecoder('utf8'); // a chunk may end inside a multi-byte character
  let pending = '';
  return (chunk) => {
    pending += decoder.write(chunk);
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim().length > 0) onLine(line);
    }
    if (pending.length > maxLine) {
      pending = '';
      onOverflow();
    }
  };
}
