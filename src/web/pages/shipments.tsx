// The shipments list (the home page of a signed-in user).
import type { FastifyInstance } from 'fastify';
import type { WebOptions } from '../context.ts';
import { Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';

export function shipmentsRoutes(web: FastifyInstance, _options: WebOptions): void {
  web.get('/shipments', async (req, reply) =>
    sendPage(
      reply,
      <Layout req={req} title="Shipments" section="shipments">
        <h1>Shipments</h1>
      </Layout>,
    ),
  );
}
