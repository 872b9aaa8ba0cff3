// A document's text as lines of cells. The PDF adapter separates text items that stand apart on a
// line with a tab; OCR and typed text line columns up with runs of blanks. Either way a cell is
// one box of the printed form: a label, a value, or both ("Port of Loading: Rotterdam").

export type Layout = readonly (readonly string[])[];

const CELL_BREAK = /\t+| {3,}/;

/** A line of running text this long that wrapped goes on with the next line. */
const WRAPPED_AT = 60;

export function layoutOf(text: string): Layout {
  const lines = text
    .normalize('NFKC')
    .split(/\r?\n|\f/)
    .map((line) => line.split(CELL_BREAK).map((c) => c.trim()).filter(Boolean))
    .filter((cells) => cells.length > 0);
  // Running text wraps wherever the page ends, in the middle of a vessel's or a port's name:
  // a long one-cell line and the one-cell line after it are one sentence.
  const joined: string[][] = [];
  for (const cells of lines) {
    const last = joined[joined.length - 1];
    if (last && last.length === 1 && cells.length === 1 && last[0].length >= WRAPPED_AT && !/[.!?]$/.test(last[0])) last[0] += ` ${cells[0]}`;
    else joined.push([...cells]);
  }
  return joined;
}

/** One way to write a label, e.g. /B\s*\/\s*L\s*No\.?/; `anchored` ones count only at a cell's start. */
export interface Label {
  re: RegExp;
  anchored?: boolean;
}

/** A label's pattern compiled to find it inside a cell, not inside a word. */
export function labelPattern(alternatives: readonly string[], anchored = false): Label {
  const body = `(?:${alternatives.join('|')})`;
  return { re: new RegExp(`${anchored ? '^' : '(?<![A-Za-z0-9])'}${body}(?![A-Za-z]|['’]s)`, 'i'), anchored };
}

const SEPARATOR = /^[\s:#.=\-–—]+/;

/**
 * Every value written after `labels`, in reading order: the rest of the label's cell, else the
 * next cell on its line (unless that is a label too), else the cell below it (stacked boxes and
 * table columns).
 */
export function valuesAfter(layout: Layout, labels: readonly Label[], isLabel: (cell: string) => boolean): string[] {
  const values: string[] = [];
  layout.forEach((cells, row) => {
    cells.forEach((cell, col) => {
      for (const label of labels) {
        const m = label.re.exec(cell);
        if (!m) continue;
        const rest = cell.slice(m.index + m[0].length).replace(SEPARATOR, '');
        if (rest) values.push(rest);
        else if (cells[col + 1] !== undefined && !isLabel(cells[col + 1])) values.push(cells[col + 1]);
        else {
          const below = layout[row + 1];
          if (below && below[col] !== undefined && !isLabel(below[col])) values.push(below[col]);
          // A table's column (a header row of several cells): every row below of as many cells,
          // up to a row that holds a label (a row of the form again, not of the table).
          const dataRow = (r: number) => layout[r]?.length === cells.length && !layout[r].some(isLabel);
          for (let r = row + 2; cells.length > 1 && below?.length === cells.length && dataRow(r); r++) {
            values.push(layout[r][col]);
          }
        }
        break;
      }
    });
  });
  return values;
}
