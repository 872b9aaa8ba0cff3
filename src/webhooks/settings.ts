// What the webhook routes take from svc's configuration: which receivers they accept, the addresses
// deliveries leave from, and how long a receiver has to answer. `svc serve` reads them from the
// environment once; test apps give their own.
import type { Config } from '../config/index.ts';
import type { HostLookup } from '../domain/webhooks/url-policy.ts';
import { defaultDeliveryPolicy } from './policy.ts';

export interface WebhookSettings {
  /** Accept http: URLs and loopback or private targets (SVC_WEBHOOK_ALLOW_INSECURE). */
  allowInsecure: boolean;
  /** Where deliveries come from (SVC_WEBHOOK_SOURCE_IPS), for GET /v2/webhooks/ips. */
  sourceIps: readonly string[];
  /** When that list was read: the `last_updated` of GET /v2/webhooks/ips. */
  sourceIpsUpdatedAt: Date;
  /** How long a receiver has to answer a delivery, or a test send (SVC_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Resolves webhook host names; the system resolver when unset. */
  lookup?: HostLookup;
}

type WebhookConfig = Pick<Config, 'SVC_WEBHOOK_ALLOW_INSECURE' | 'SVC_WEBHOOK_SOURCE_IPS' | 'SVC_WEBHOOK_TIMEOUT_MS'>;

export function webhookSettingsFrom(config: WebhookConfig, now = new Date()): WebhookSettings {
  return {
    allowInsecure: config.SVC_WEBHOOK_ALLOW_INSECURE,
    sourceIps: config.SVC_WEBHOOK_SOURCE_IPS,
    sourceIpsUpdatedAt: now,
    timeoutMs: config.SVC_WEBHOOK_TIMEOUT_MS,
  };
}

/** The settings of an app given none: secure receivers only, no published addresses. */
export const defaultWebhookSettings: WebhookSettings = Object.freeze({
  allowInsecure: false,
  sourceIps: [],
  sourceIpsUpdatedAt: new Date(),
  timeoutMs: defaultDeliveryPolicy.timeoutMs,
});
