// The receiver URL in the two bodies that name one, a webhook's and a test send's
// (POST /v2/webhooks/trigger): the same form rules, and the same check that svc may deliver there.
import { z } from 'zod';
import { checkWebhookUrl, urlFormProblem } from '../../domain/webhooks/url-policy.ts';
import { unprocessable } from '../../jsonapi/errors.ts';
import type { WebhookSettings } from '../../webhooks/settings.ts';

const MAX_URL_LENGTH = 2048;

/** A zod issue with svc's own error `code` (validateBody answers it as that code). */
export const customIssue = (message: string, code: string, path: (string | number)[] = []) => ({ code: 'custom' as const, message, path, params: { code } });

/** Trimmed, at most 2048 characters, an absolute http(s) URL without credentials; reachability is checked after parsing. */
export const webhookUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .superRefine((url, ctx) => {
    // Blank and overlong URLs already have their own error.
    if (url === '' || url.length > MAX_URL_LENGTH) return;
    const problem = urlFormProblem(url);
    if (problem) ctx.addIssue(customIssue(problem, 'invalid'));
  });

/**
 * A 422 at `pointer` unless the URL policy lets svc deliver to `url`. `acceptUnresolvable`: a name
 * that does not resolve right now (an offline receiver, a DNS hiccup) passes, for a webhook saved
 * now and delivered to later; each delivery checks the addresses it connects to.
 */
export async function assertDeliverable(url: string, settings: WebhookSettings, pointer: string, acceptUnresolvable: boolean): Promise<void> {
  const check = await checkWebhookUrl(url, { allowInsecure: settings.allowInsecure, lookup: settings.lookup });
  if (!check.ok && !(acceptUnresolvable && check.problem === 'unresolvable')) throw unprocessable(pointer, check.reason, 'invalid');
}
