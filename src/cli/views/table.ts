/** Plain column-aligned text table; cells may carry colour codes (width is measured without them). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').length;
  const widths = headers.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c + ' '.repeat(Math.max(0, widths[i]! - visible(c))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
