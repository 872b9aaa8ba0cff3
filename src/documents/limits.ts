// How much of a file svc reads, and how the processes that read files are kept. Every document and
// every e-mail comes from a client, so none of these is left to the file: a bound reached either
// stops the reading where it is (pages, characters, attachments, nesting: what was read is kept)
// or, for the process's memory and time (SVC_DOCUMENT_EXTRACT_MEMORY_MB, _TIMEOUT_S), fails the
// document with the bound as its reason.

/**
 * Pages of a PDF's text layer read at most: the numbers svc tracks are on a shipping document's
 * first pages, and these pages of a long manifest already name more than any shipment has.
 */
export const MAX_PDF_PAGES = 100;

/** Characters of text kept from one document, more than any shipping document holds: reading stops there. */
export const MAX_TEXT_CHARS = 2_000_000;

/**
 * Attachments of one e-mail message that become documents (or are read, for a message that is a
 * document itself); the others are skipped and reported. More than a shipment's paperwork, and it
 * keeps one message from queueing thousands of jobs.
 */
export const MAX_MAIL_ATTACHMENTS = 50;

/** Messages inside messages (message/rfc822) read at most this deep: forwards of forwards. */
export const MAX_RFC822_DEPTH = 3;

/** MIME multiparts inside multiparts parsed at most this deep (real mail nests a handful). */
export const MAX_MIME_DEPTH = 32;

/** Extraction processes reading documents side by side: one per core of a small host. */
export const DOCUMENT_PROCESSES = 2;

/**
 * Processes parsing incoming e-mail: apart from the documents', so a sender waiting for its
 * answer never waits behind a large PDF.
 */
export const MAIL_PROCESSES = 1;

/**
 * A process that read a file this large is ended after it: the memory a large file makes V8
 * reserve is returned to the system only when the process exits.
 */
export const RECYCLE_AFTER_BYTES = 1024 * 1024;

/** A process whose resident memory grew this much over its start is ended after its job. */
export const RECYCLE_GROWTH_MB = 100;

/** Jobs one process runs before it is replaced: fragmentation builds up even without large files, and a start (loading pdf.js) is dear enough to be rare. */
export const RECYCLE_AFTER_JOBS = 1000;

/** An idle process exits after this long: svc's memory goes back to its baseline when no file comes. */
export const IDLE_EXIT_MS = 30_000;

/** How often a running job's process has its resident memory read. */
export const MEMORY_CHECK_MS = 100;
