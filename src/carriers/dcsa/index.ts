// The DCSA Track & Trace connector: what the rest of svc uses.
export { parseCallback } from './callback.ts';
export { DcsaClient, type DcsaClientOptions, type DcsaEventFilters, type DcsaEventType, type DcsaSubscriptionRequest } from './client.ts';
export { DcsaConnector, type DcsaConnectorOptions } from './connector.ts';
export { DcsaHttpError, DcsaUnreachableError, UnrecognizedResponseError } from './errors.ts';
export { toCarrierEvents, type DcsaVersion } from './normalize.ts';
export { verifyNotificationSignature } from './notification-signature.ts';
