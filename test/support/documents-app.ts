// The app the documents and e-mail submission tests share for a file: a document cap small enough
// to go over in a test, and the OpenAPI checker their answers are held to.
import { startTestApp, type TestApp } from './app.ts';
import { forFile } from './for-file.ts';
import { openApiChecker, type OpenApiChecker } from './openapi.ts';

export function documentsAppForFile(maxBytes: number, keep: (app: TestApp, checker: OpenApiChecker) => void): void {
  forFile(
    async () => {
      const app = await startTestApp({ documents: { maxBytes, linkTtlMs: 60_000 } });
      return { app, checker: await openApiChecker(app) };
    },
    (s) => keep(s.app, s.checker),
    (s) => s.app.close(),
  );
}
