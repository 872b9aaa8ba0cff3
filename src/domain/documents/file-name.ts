// The file name svc keeps for a document, from the one a client or a sender gave: only its base
// name (a name like `../../etc/passwd` or `C:\Users\x\invoice.pdf` is a path on someone else's
// machine, and a download saved under it could land outside the folder it was saved to), without
// control characters (which a header or a terminal would act on) or the bidirectional controls that
// make `invoice\u202Efdp.exe` look like a PDF, without leading dots (no hidden file on saving), and
// short enough for any file system, the extension kept.

/** The longest name svc keeps: what common file systems allow. */
export const MAX_FILE_NAME = 255;
/** An extension longer than this is part of the name, not kept whole when the name is shortened. */
const MAX_EXTENSION = 16;

// C0 and C1 controls, DEL, and the Unicode bidirectional embeddings, overrides and isolates.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The base name of `given` as svc keeps it; `fallback` when nothing of it is left. */
export function documentFileName(given: string | null | undefined, fallback = 'document'): string {
  const base = (given ?? '').replace(CONTROLS, '').split(/[/\\]/).pop()!.trim().replace(/^\.+/, '').trim();
  if (!base) return fallback;
  const chars = [...base];
  if (chars.length <= MAX_FILE_NAME) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= MAX_EXTENSION ? [...base.slice(dot)] : [];
  return chars.slice(0, MAX_FILE_NAME - extension.length).join('').trimEnd() + extension.join('');
}
