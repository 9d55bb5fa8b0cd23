import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

function lineAt(node: Node | null | undefined, lc: LineCounter): number | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lc.linePos(offset).line;
}

/**
 * The 1-based line a field path points at: the key's line for a mapping entry (a block value starts below it), the
 * item's line for a list entry. A path that does not exist (a missing field) resolves to its deepest existing
 * ancestor, which is where the field should be added.
 */
export function lineOf(doc: Document, lc: LineCounter, path: readonly (string | number)[]): number {
  let node: unknown = doc.contents;
  let line = lineAt(doc.contents, lc) ?? 1;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      line = lineAt(pair.key as Node, lc) ?? line;
      node = pair.value;
      if (node === null) break;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      line = lineAt(item as Node, lc) ?? line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}

/** `steps[2].kill.target`; the top level is `(top level)`. */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}
