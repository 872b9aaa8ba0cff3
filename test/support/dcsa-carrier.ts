// A DCSA Track & Trace carrier on 127.0.0.1: answers GET /v2/events (2.2) and /v3/events (3.0)
// with the body set for the reference asked about, 404 for any other.
import Fastify from 'fastify';

export interface DcsaCarrier {
  origin: string;
  /** The body answered, by booking, transport document or equipment reference. */
  answers: Map<string, unknown>;
  /** Bodies answered page by page (a cursor in Next-Page for 2.2, Next-Page-Cursor for 3.0), by reference; before `answers`. */
  pages: Map<string, unknown[]>;
  /** The references asked about, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startDcsaCarrier(): Promise<DcsaCarrier> {
  const answers = new Map<string, unknown>();
  const pages = new Map<string, unknown[]>();
  const asked: string[] = [];
  const app = Fastify({ forceCloseConnections: true });
  app.get('/:version/events', (request, reply) => {
    const query = request.query as Record<string, string>;
    const reference = query.carrierBookingReference ?? query.transportDocumentReference ?? query.equipmentReference;
    asked.push(reference);
    const paged = pages.get(reference);
    if (paged) {
      const page = Number(query.cursor ?? 0);
      const header = (request.params as { version: string }).version === 'v2' ? 'Next-Page' : 'Next-Page-Cursor';
      if (page + 1 < paged.length) void reply.header(header, String(page + 1));
      return reply.type('application/json').send(JSON.stringify(paged[page] ?? []));
    }
    return answers.has(reference) ? reply.type('application/json').send(JSON.stringify(answers.get(reference))) : reply.code(404).send({ message: 'unknown' });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, answers, pages, asked, close: () => app.close() };
}
