// multipart/form-data is parsed by POST /v2/documents alone, and message/rfc822 by POST
// /v2/email_submissions alone: either sent to a JSON route is a 415 (a media type the route does
// not take), not a 422 for a body that seemed empty, while those two routes keep taking theirs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

async function postForm(path: string, key: string | null = t.key): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('name', 'a form');
  form.append('file', new Blob(['Arrival notice for container\n']), 'notice.txt');
  const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: key ? { authorization: `Token ${key}` } : {}, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test('a multipart body sent to JSON routes is a 415 naming the media types they take', async () => {
  for (const path of ['/v2/tracking_requests', '/v2/webhooks', '/v2/parties', '/v2/custom_field_definitions', '/v2/direct_uploads']) {
    const res = await postForm(path);
    assert.equal(res.status, 415, `${path}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].status, '415');
    assert.match(res.body.errors[0].detail, /application\/vnd\.api\+json or application\/json/, path);
  }
  // Authentication comes first, as everywhere.
  assert.equal((await postForm('/v2/tracking_requests', null)).status, 401);
});

test('POST /v2/documents takes a multipart upload and a JSON body alike', async () => {
  const form = await postForm('/v2/documents');
  assert.equal(form.status, 201, JSON.stringify(form.body));
  assert.equal(form.body.data.attributes.name, 'a form');
  const json = await t.request('POST', '/v2/documents', { body: { data: { type: 'document', attributes: { name: 'x', attached_document: 'not-a-signed-id' } } } });
  assert.equal(json.status, 422, json.text);
  assert.equal(json.body.errors[0].code, 'invalid_signed_id');
});

test('a raw e-mail sent to JSON routes is a 415; POST /v2/email_submissions takes it', async () => {
  const message = 'From: a@example.com\r\nTo: b@example.com\r\nSubject: hello\r\n\r\nno numbers here\r\n';
  const post = (path: string) =>
    fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Token ${t.key}`, 'content-type': 'message/rfc822' }, body: message });
  for (const path of ['/v2/tracking_requests', '/v2/webhooks', '/v2/documents']) {
    const res = await post(path);
    const body = (await res.json()) as any;
    assert.equal(res.status, 415, `${path}: ${JSON.stringify(body)}`);
    assert.equal(body.errors[0].status, '415');
  }
  const accepted = await post('/v2/email_submissions');
  assert.equal(accepted.status, 201, await accepted.text());
});
