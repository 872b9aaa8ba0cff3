// Pages for what went wrong: an unknown address, a refused form, a fault on svc's side.
import type { FastifyRequest } from 'fastify';
import { Layout } from '../layout.tsx';

export function ErrorPage({ req, title, detail }: { req: FastifyRequest; title: string; detail: string }) {
  return (
    <Layout req={req} title={title}>
      <section class="narrow">
        <h1>{title}</h1>
        <p>{detail}</p>
        <p>
          <a href="/shipments">Back to your shipments</a>
        </p>
      </section>
    </Layout>
  );
}
