// Requests a second apart on the app's clock, so a test file's many calls never meet the rate
// limit (100 a minute), and the JSON:API document of a write.
import type { TestApp } from './app.ts';

type Requesting = Pick<TestApp, 'clock' | 'request'>;

/** A `request` of the app `app()` returns (the app a file starts, once started), a second after the last. */
export const spacedRequests =
  (app: () => Requesting) =>
  (method: string, path: string, options?: Parameters<TestApp['request']>[2]): ReturnType<TestApp['request']> => {
    const t = app();
    t.clock.advance(1000);
    return t.request(method, path, options);
  };

/** { data: { type, attributes } }. */
export const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
