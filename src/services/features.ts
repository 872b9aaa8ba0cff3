// Per-account features: what an operator can switch off for one account (`svc accounts features`),
// and the check a route makes before it answers with a switched-off feature's data. Every feature
// is on unless the account's row lists it as off, so adding one here is all a new feature takes.
import { FeatureNotEnabled } from '../domain/errors.ts';
import { setAccountFeature, type Account } from '../store/accounts.ts';
import type { Queryable } from '../store/db.ts';

/** Each feature with the words its refusal uses ("<label> feature is not enabled for this account"). */
export const FEATURES = {
  /** Vessel positions and predicted paths, container maps and routes. */
  routing: { label: 'Routing data', description: 'vessel positions and predicted paths, container maps and routes' },
  /** Numbers read from an uploaded document that the account does not track yet become tracking requests. */
  document_tracking: { label: 'Document tracking', description: 'numbers read from uploaded documents that are not tracked yet become tracking requests' },
} as const;

export type Feature = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as Feature[];

export const isFeature = (name: string): name is Feature => Object.hasOwn(FEATURES, name);

/**
 * What a feature check reads: the features switched off for the calling account. A route's
 * context (Ctx.disabledFeatures, loaded with the API key, no query of its own) is one.
 */
export interface FeatureHolder {
  readonly disabledFeatures: readonly string[];
}

export const hasFeature = (holder: FeatureHolder, feature: Feature): boolean => !holder.disabledFeatures.includes(feature);

/**
 * Raises FeatureNotEnabled (a 403 over HTTP, with the reference service's body) when the account
 * does not have `feature`. Call it first in a handler: a switched-off feature answers 403 whatever
 * else is wrong with the request.
 */
export function requireFeature(holder: FeatureHolder, feature: Feature): void {
  if (!hasFeature(holder, feature)) throw new FeatureNotEnabled(feature, `${FEATURES[feature].label} feature is not enabled for this account`);
}

/** Every feature and whether the account has it, in FEATURES order: `{ routing: true }`. */
export function featureStates(disabled: readonly string[]): Record<Feature, boolean> {
  return Object.fromEntries(FEATURE_NAMES.map((name) => [name, !disabled.includes(name)])) as Record<Feature, boolean>;
}

/** Switches a feature on or off for an account; undefined when there is no such account. */
export function setFeature(db: Queryable, accountId: string, feature: Feature, enabled: boolean): Promise<Account | undefined> {
  return setAccountFeature(db, accountId, feature, enabled);
}
