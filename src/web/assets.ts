// Static files of the web app under /assets/: our own client scripts and styles (src/web/assets/),
// the MapLibre GL library straight from node_modules (no bundler), and the offline base map
// (Natural Earth land polygons from refdata/). Everything is registered inside one encapsulated
// plugin, so the compression hook, the plain-text 404 and the absence of body parsers stay off
// the JSON:API routes under /v2.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');

/** Our own files: plain browser ES modules and CSS, served as they are in the repository. */
export const ASSETS_DIR = path.join(import.meta.dirname, 'assets');
/** The land polygons the map draws under the route (refdata/README.md says where they come from). */
export const BASE_MAP_FILE = path.join(root, 'refdata/world-land-50m-rounded.geojson');

const maplibreDist = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.mjs'));
export const MAPLIBRE_VERSION: string = JSON.parse(readFileSync(path.join(maplibreDist, '../package.json'), 'utf8')).version;
/**
 * The library's folder carries its version, so its files can be cached for good. The worker is
 * found by the library itself, next to maplibre-gl.mjs (`import.meta.url`).
 */
const MAPLIBRE_PREFIX = `/vendor/maplibre-gl@${MAPLIBRE_VERSION}/`;
const MAPLIBRE_FILES = new Set(['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css']);

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unversioned URLs are revalidated on every use (a 304 when unchanged, thanks to the ETag). */
const REVALIDATE = 'no-cache';

/**
 * The one unversioned name client code imports MapLibre by (`./vendor/maplibre-gl.mjs` from
 * map.js): a re-export of the versioned file, so upgrading the package needs no edit in map.js.
 */
const MAPLIBRE_SHIM = `export * from '.${MAPLIBRE_PREFIX.slice('/vendor'.length)}maplibre-gl.mjs';\n`;

const versions = new Map<string, string>();
function contentVersion(file: string): string {
  let v = versions.get(file);
  if (!v) {
    v = createHash('sha256').update(readFileSync(file)).digest('base64url').slice(0, 12);
    versions.set(file, v);
  }
  return v;
}

/**
 * The URL of one of our files with its content hash (`/assets/map.js?v=…`), cached for good by
 * browsers; a file changed on disk gets a new URL after a restart.
 */
export function assetUrl(name: string): string {
  const file = path.join(ASSETS_DIR, name);
  if (!file.startsWith(ASSETS_DIR + path.sep)) throw new Error(`not an asset: ${name}`);
  return `/assets/${name}?v=${contentVersion(file)}`;
}

/** Stylesheets and scripts a page with a route map puts in its <head> (no inline script: CSP-friendly). */
export function routeMapHead(): string {
  const vendor = `/assets${MAPLIBRE_PREFIX}`;
  return [
    `<link rel="stylesheet" href="${vendor}maplibre-gl.css">`,
    `<link rel="stylesheet" href="${assetUrl('map.css')}">`,
    // Fetched in parallel with map.js instead of after it.
    `<link rel="modulepreload" href="${vendor}maplibre-gl.mjs">`,
    `<script type="module" src="${assetUrl('map.js')}"></script>`,
  ].join('\n');
}

function cacheHeaders(reply: FastifyReply): void {
  const versioned = reply.request.url.startsWith(`/assets${MAPLIBRE_PREFIX}`) || /[?&]v=/.test(reply.request.url);
  reply.header('cache-control', versioned ? IMMUTABLE : REVALIDATE);
}

async function assets(app: FastifyInstance): Promise<void> {
  // Brotli or gzip on the fly for anything over 1 KiB; a browser fetches the big files once.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  const common = { decorateReply: false, cacheControl: false, index: false, setHeaders: cacheHeaders } as const;
  await app.register(fastifyStatic, { ...common, root: ASSETS_DIR, prefix: '/' });
  await app.register(fastifyStatic, {
    ...common,
    root: maplibreDist,
    prefix: MAPLIBRE_PREFIX,
    allowedPath: (name) => MAPLIBRE_FILES.has(name.replace(/^\//, '')),
  });
  await app.register(fastifyStatic, {
    ...common,
    root: path.dirname(BASE_MAP_FILE),
    prefix: '/basemap/',
    allowedPath: (name) => name.replace(/^\//, '') === path.basename(BASE_MAP_FILE),
    // Brotli at its best quality beside the file (160 KB, against 280 KB on the fly): the base
    // map is revalidated rather than versioned, so every first visit downloads it.
    preCompressed: true,
  });
  app.get('/vendor/maplibre-gl.mjs', async (_req, reply) => {
    return reply.header('cache-control', REVALIDATE).type('text/javascript; charset=utf-8').send(MAPLIBRE_SHIM);
  });
  // A missing file is a plain 404, not a JSON:API document (the root handler's answer).
  app.setNotFoundHandler(async (req, reply) => reply.code(404).type('text/plain; charset=utf-8').send(`Not found: ${req.url.split('?')[0]}\n`));
}

/** Serves /assets/ (see above) on the app; call once, next to the page routes. */
export async function registerAssets(app: FastifyInstance): Promise<void> {
  await app.register(assets, { prefix: '/assets' });
}
