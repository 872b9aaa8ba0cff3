import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSameJourney } from './same-journey.ts';

const known = { request_type: 'container', request_number: 'SBXU7700014', bill_of_lading_number: null, booking_number: null };

test('documents decide when both sides have them', () => {
  const bl = { ...known, bill_of_lading_number: 'TEST1' };
  assert.equal(isSameJourney(bl, { request_type: 'container', number: 'SBXU7700014', billOfLadingNumber: 'test1', bookingNumber: null }), true);
  assert.equal(isSameJourney(bl, { request_type: 'container', number: 'SBXU7700014', billOfLadingNumber: 'TEST2', bookingNumber: null }), false);
  const bkg = { ...known, booking_number: 'B1' };
  assert.equal(isSameJourney(bkg, { request_type: 'container', number: 'SBXU7700014', billOfLadingNumber: 'TEST2', bookingNumber: 'B1' }), true);
});

test('without documents, the same B/L or booking asked again is the same journey; a container number is not', () => {
  const bl = { ...known, request_type: 'bill_of_lading', request_number: 'TEST1' };
  assert.equal(isSameJourney(bl, { request_type: 'bill_of_lading', number: 'TEST1', billOfLadingNumber: null, bookingNumber: null }), true);
  assert.equal(isSameJourney(known, { request_type: 'container', number: 'SBXU7700014', billOfLadingNumber: null, bookingNumber: null }), false);
});
