// OCR through Debian's tesseract-ocr, run as a child process; scanned PDFs are rasterised first
// with poppler-utils' pdftoppm. Both are optional: without them an image is left `needs_ocr`.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const TIMEOUT_MS = 120_000;

function available(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => execFile(command, args, { timeout: 10_000 }, (err) => resolve(!err)));
}

let tesseract: Promise<boolean> | undefined;
let pdftoppm: Promise<boolean> | undefined;

/** tesseract answers on PATH (checked once per process). */
export const ocrAvailable = (): Promise<boolean> => (tesseract ??= available('tesseract', ['--version']));
/** pdftoppm answers on PATH (checked once per process). */
export const rasteriserAvailable = (): Promise<boolean> => (pdftoppm ??= available('pdftoppm', ['-v']));

/** Runs `command`, feeding `input` on stdin; resolves with stdout. */
function run(command: string, args: string[], input: Uint8Array | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // One thread each: svc may OCR several documents at once, and tesseract's threads fight over cores.
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, OMP_THREAD_LIMIT: '1' }, timeout: TIMEOUT_MS });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} ${signal ? `killed by ${signal}` : `exited ${code}`}: ${Buffer.concat(err).toString().trim().slice(0, 300)}`));
    });
    child.stdin.on('error', () => {}); // a child that exits early closes its stdin: 'close' reports it
    child.stdin.end(input ?? undefined);
  });
}

/**
 * The text of an image (PNG, JPEG, TIFF). Page segmentation 4 reads the page as one column of
 * lines, so a form's label and value stay on one line (the default splits them into blocks), and
 * preserved blanks keep table columns apart.
 */
export async function ocrImage(bytes: Uint8Array): Promise<string> {
  const out = await run('tesseract', ['stdin', 'stdout', '-l', 'eng', '--psm', '4', '-c', 'preserve_interword_spaces=1'], bytes);
  return out.toString('utf8');
}

/**
 * Pages of a scan OCRed at most: the numbers svc tracks are on a shipping document's first pages,
 * and each page costs seconds of CPU.
 */
export const OCR_MAX_PAGES = 10;

/** A PDF's first pages as images (300 dpi, grey), OCRed one by one. */
export async function ocrPdf(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-ocr-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), bytes);
    await run('pdftoppm', ['-r', '300', '-gray', '-png', '-l', String(OCR_MAX_PAGES), path.join(dir, 'in.pdf'), path.join(dir, 'page')], null);
    const pages = (await readdir(dir)).filter((f) => f.startsWith('page')).sort();
    const texts: string[] = [];
    for (const page of pages) texts.push(await ocrImage(await readFile(path.join(dir, page))));
    return texts.join('\n\f');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
