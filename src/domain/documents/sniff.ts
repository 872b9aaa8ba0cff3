// What a file is, read from its first bytes rather than its name or the client's word: a .txt
// renamed .pdf is text. svc accepts the kinds its extraction can read (or will, with OCR).

export const SNIFFED_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff', 'message/rfc822', 'text/plain'] as const;
export type SniffedType = (typeof SNIFFED_TYPES)[number];

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);

// Magic numbers of the binary kinds: PDF may have a little junk before %PDF- (the spec allows 1 KiB).
const MAGIC: readonly { type: SniffedType; test: (bytes: Uint8Array) => boolean }[] = [
  { type: 'application/pdf', test: (b) => Buffer.from(b.subarray(0, 1024)).includes('%PDF-') },
  { type: 'image/png', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/tiff', test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) },
];

// An e-mail (RFC 5322) opens with header fields; these names are the ones every message carries.
const MAIL_HEADER = /^(from|to|subject|date|received|return-path|message-id|mime-version|delivered-to|x-[\w-]+):/i;

/** Text svc can read: valid UTF-8 with no control characters beyond tab, line feed, carriage return and form feed. */
function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** The content type of `bytes`, or undefined when svc does not accept that kind of file. */
export function sniffContentType(bytes: Uint8Array): SniffedType | undefined {
  const binary = MAGIC.find((m) => m.test(bytes));
  if (binary) return binary.type;
  const text = asText(bytes);
  if (text === undefined) return undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/, 20);
  // Two header fields before the first blank line make it a message; one could be a note saying "To: the team".
  const headers = lines.slice(0, Math.max(0, lines.indexOf('')) || lines.length).filter((l) => MAIL_HEADER.test(l));
  return headers.length >= 2 && MAIL_HEADER.test(lines[0]) ? 'message/rfc822' : 'text/plain';
}

export const isImage = (contentType: string): boolean => contentType.startsWith('image/');
