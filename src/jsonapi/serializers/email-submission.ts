// E-mail submissions, as the reference service shapes them.
import type { EmailSubmissionRow } from '../../store/email-submissions.ts';
import { iso, toMany, toOne, type Resource } from '../document.ts';

/** `documentIds`: the submission's documents not discarded. */
export function emailSubmissionResource(row: EmailSubmissionRow, documentIds: string[]): Resource {
  return {
    id: row.id,
    type: 'email_submission',
    attributes: {
      subject: row.subject,
      body: row.body,
      from: row.from,
      to: row.to,
      cc: row.cc,
      sent_at: iso(row.sent_at),
      message_id: row.message_id,
      in_reply_to: row.in_reply_to,
      references: row.references,
      content_type: row.content_type,
      documents_count: documentIds.length,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    relationships: {
      account: toOne('account', row.account_id),
      user: toOne('user', null),
      documents: toMany('document', documentIds),
    },
    links: { self: `/v2/email_submissions/${row.id}` },
  };
}
