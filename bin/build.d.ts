// Types of bin/build.js (plain JavaScript: it runs before anything can read TypeScript).
export declare const DIST_DIR: string;
/** A digest of every input's name, size and modification time. */
export declare function fingerprint(): string;
/** The URL of the compiled entry module, compiling first when needed; undefined without TypeScript. */
export declare function compiledEntry(say?: (msg: string) => void): string | undefined;
