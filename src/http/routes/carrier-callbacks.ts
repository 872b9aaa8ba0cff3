// Where carriers push new events (DCSA event subscriptions). A callback is trusted only when its
// Notification-Signature verifies with the shipment's own secret; it then makes the shipment due,
// and the worker's refresh fetches and applies the news through the same path as polling.
import type { FastifyInstance } from 'fastify';
import { parseCallback, verifyNotificationSignature } from '../../carriers/dcsa/index.ts';
import { ApiError } from '../../jsonapi/errors.ts';
import { carrierSubscriptionSecret, makeDueNow } from '../../store/shipments.ts';
import { JSONAPI, trackingClockOf, type Services } from '../route.ts';

export function carrierCallbackRoutes(app: FastifyInstance, services: Services): void {
  void app.register(async (scope) => {
    // The signature covers the exact bytes, so this scope keeps the body raw.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { shipmentId: string } }>('/carrier-callbacks/:shipmentId', async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { shipmentId } = req.params;
      const secret = await carrierSubscriptionSecret(services.db, shipmentId);
      const signature = req.headers['notification-signature'];
      if (!secret || !verifyNotificationSignature(body, typeof signature === 'string' ? signature : undefined, secret)) {
        reply.type(JSONAPI);
        throw ApiError.of(401, { detail: 'The Notification-Signature does not verify for this subscription.', code: 'bad_signature' });
      }
      try {
        parseCallback(body);
      } catch (err) {
        throw ApiError.of(400, { detail: `The callback body is not an array of DCSA events: ${(err as Error).message}`, code: 'unrecognized_callback' });
      }
      await makeDueNow(services.db, shipmentId, trackingClockOf(services).now());
      return reply.code(204).send();
    });
  });
}
