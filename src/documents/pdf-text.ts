// A PDF's text layer, laid out as lines of cells (see src/domain/documents/extract/layout.ts):
// pdf.js gives positioned text items; items on one baseline make a line, and a wide gap between
// two of them (a table column, a second box) becomes a tab.
import { getDocumentProxy } from 'unpdf';
import { MAX_PDF_PAGES, MAX_TEXT_CHARS } from './limits.ts';

interface Item {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

/** A gap wider than this many font sizes separates cells. */
const CELL_GAP = 1.2;

function linesOf(items: Item[]): string[] {
  const lines: Item[][] = [];
  for (const item of [...items].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0].y - item.y) <= line[0].size * 0.4) line.push(item);
    else lines.push([item]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.x - b.x);
    let text = '';
    let end = -Infinity;
    for (const item of line) {
      const gap = item.x - end;
      if (text) text += gap > item.size * CELL_GAP ? '\t' : gap > item.size * 0.15 && !text.endsWith(' ') ? ' ' : '';
      text += item.str;
      end = item.x + item.width;
    }
    return text.trimEnd();
  });
}

/** Pages' text, separated by form feeds: the first MAX_PDF_PAGES, or fewer once MAX_TEXT_CHARS are read. */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PDF_PAGES) && chars < MAX_TEXT_CHARS; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const items: Item[] = [];
      for (const it of content.items) {
        if (!('str' in it) || it.str.trim() === '') continue;
        items.push({ str: it.str, x: it.transform[4], y: it.transform[5], width: it.width, size: Math.hypot(it.transform[2], it.transform[3]) || 10 });
      }
      pages.push(linesOf(items).join('\n'));
      chars += pages[pages.length - 1].length;
    }
    return { text: pages.join('\n\f'), pages: pdf.numPages };
  } finally {
    await pdf.destroy();
  }
}
