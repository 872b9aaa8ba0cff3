// Turning an image's pixels (PNG, JPEG, TIFF) with sharp, the libvips binding: it ships prebuilt
// binaries as npm packages, decodes and encodes all three formats natively, and rotates a 300 dpi
// A4 scan in milliseconds off the event loop (libuv's pool), where a pure-JS library (jimp) would
// hold the loop for a second and more per page.
import type { Sharp, SharpInput } from 'sharp';

// Loaded at the first rotation: its native library is no cost to a process that never rotates.
let loaded: Promise<(input: SharpInput) => Sharp> | undefined;
const image = async (bytes: Uint8Array): Promise<Sharp> => (await (loaded ??= import('sharp').then((m) => m.default)))(bytes);

export type Rotation = 90 | 180 | 270;

/** Why an image cannot be turned: svc answers the client with this, as a 422. */
export class NotRotatable extends Error {}

/**
 * `bytes` turned clockwise by `degrees`, in the format they came in. An EXIF orientation is
 * applied first, so the result is turned from what a viewer shows; the output carries none.
 */
export async function rotateImage(bytes: Uint8Array, contentType: string, degrees: Rotation): Promise<Buffer> {
  let pages: number | undefined;
  try {
    pages = (await (await image(bytes)).metadata()).pages;
  } catch (err) {
    throw new NotRotatable(`The image could not be read: ${(err as Error).message}`);
  }
  // sharp turns one page; the others of a multi-page TIFF would be lost.
  if (pages !== undefined && pages > 1) throw new NotRotatable(`The TIFF has ${pages} pages; svc rotates single-page images only.`);
  const turned = (await image(bytes)).autoOrient().rotate(degrees);
  switch (contentType) {
    case 'image/png':
      return turned.png().toBuffer();
    case 'image/jpeg':
      // JPEG cannot be turned without a new encoding: a high quality keeps a scan's text sharp.
      return turned.jpeg({ quality: 92 }).toBuffer();
    case 'image/tiff':
      return turned.tiff({ compression: 'lzw' }).toBuffer();
    default:
      throw new NotRotatable(`svc rotates PNG, JPEG and TIFF images; this document is ${contentType}.`);
  }
}
