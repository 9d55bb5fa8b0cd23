/**
 * A command line split into words as a POSIX shell would split it (quotes, backslashes), without a shell: nothing is
 * expanded and nothing runs. What only a shell could do (pipes, redirections, `;`, `&&`, `$(…)`, variables, globs
 * in the way a shell means them) is refused, so that a command never means something else than it seems to.
 */
export type Words = { readonly words: readonly string[] } | { readonly error: string };

const OPERATORS = new Set(['|', '||', '&', '&&', ';', '<', '>', '>>', '2>', '2>&1', '(', ')']);

export function splitShellWords(text: string): Words {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  let quotedOperator = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else if (ch === '$' || ch === '`') return { error: `${ch} inside double quotes would be expanded by a shell` };
      else word += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) {
        const op = !quotedOperator && OPERATORS.has(word);
        if (op) return { error: `${word} is a shell operator, and no shell runs this command` };
        words.push(word);
      }
      word = '';
      inWord = false;
      quotedOperator = false;
      continue;
    }
    inWord = true;
    if (ch === "'" || ch === '"') {
      quote = ch;
      quotedOperator = true;
    } else if (ch === '\\') {
      if (i + 1 < text.length) word += text[++i];
      quotedOperator = true;
    } else if ('|;&<>`$'.includes(ch)) {
      return { error: `${ch} means something to a shell, and no shell runs this command` };
    } else {
      word += ch;
    }
  }
  if (quote) return { error: `a ${quote === "'" ? 'single' : 'double'} quote is not closed` };
  if (inWord) words.push(word);
  return { words };
}
