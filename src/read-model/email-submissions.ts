// E-mail submissions as resources: each row with the ids of its documents.
import type { Resource } from '../jsonapi/document.ts';
import { emailSubmissionResource } from '../jsonapi/serializers/email-submission.ts';
import type { Queryable } from '../store/db.ts';
import { documentIdsOfSubmissions, findEmailSubmissions, type EmailSubmissionRow } from '../store/email-submissions.ts';

export async function emailSubmissionResources(db: Queryable, rows: EmailSubmissionRow[]): Promise<Resource[]> {
  const documents = await documentIdsOfSubmissions(db, rows.map((r) => r.id));
  return rows.map((row) => emailSubmissionResource(row, documents.get(row.id) ?? []));
}

export const emailSubmissionsById = async (db: Queryable, accountId: string, ids: string[]): Promise<Resource[]> => emailSubmissionResources(db, await findEmailSubmissions(db, accountId, ids));
