import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

function lineAt(node: Node | null | undefined, lc: LineCounter): number | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lc.linePos(offset).line;
}

/**
 * Where a field path points: the 1-based line of the key for a mapping entry (a block value starts below it), of
 * the item for a list entry. A path that does not exist (a missing field) resolves to its deepest existing
 * ancestor, which is where the field should be added, and is marked `missing`. A path that goes on below a scalar
 * or an empty value (`kill: c4` checked as `kill.target`) is about what is written there, which is not missing.
 */
export function locate(
  doc: Document,
  lc: LineCounter,
  path: readonly (string | number)[],
): { line: number; missing: boolean } {
  let node: unknown = doc.contents;
  let line = lineAt(doc.contents, lc) ?? 1;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return { line, missing: true };
      line = lineAt(pair.key as Node, lc) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) return { line, missing: true };
      line = lineAt(item as Node, lc) ?? line;
      node = item;
    } else {
      return { line, missing: false };
    }
  }
  return { line, missing: false };
}

/** The line of `locate`. */
export function lineOf(doc: Document, lc: LineCounter, path: readonly (string | number)[]): number {
  return locate(doc, lc, path).line;
}

/** `steps[2].kill.target`; the top level is `(top level)`. */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}
