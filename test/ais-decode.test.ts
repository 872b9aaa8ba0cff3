// AIS sentences to reports, without a database: framing, checksums, multi-sentence messages,
// "not available" values, the time of a report, downsampling and the retry waits of a feed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AisSentenceDecoder, MAX_MESSAGES_IN_PROGRESS, type AisDecoded } from '../src/ais/decode.ts';
import { PositionSampler, samplingRule } from '../src/ais/downsample.ts';
import { backoffDelay } from '../src/ais/feed.ts';
import { LineSplitter, MAX_LINE_LENGTH, sentenceOf } from '../src/ais/nmea.ts';
import { reportTime } from '../src/ais/report-time.ts';
import { encode, fragments, position, voyage, withChecksum } from './support/ais-feed.ts';

const decodeAll = (lines: string[]) => {
  const decoder = new AisSentenceDecoder();
  return lines.map((line) => decoder.decode(line));
};
const reasonOf = (d: AisDecoded) => (d.kind === 'skipped' ? d.reason : d.kind);

describe('decoding', () => {
  test('class A and class B position reports, with "not available" speed, course and heading as null', () => {
    const [a, b, none] = decodeAll([
      position(227006760, 48.3, -4.5, 12.3, 250.1),
      position(227006761, -33.85, 151.2, 5.5, 90, 18),
      encode({ aistype: 1, mmsi: 227006762, navstatus: 5, lat: 1.25, lon: 103.8, sog: 102.3, cog: 360, hdg: 511 }),
    ]);
    assert.deepEqual(a, { kind: 'position', mmsi: 227006760, latitude: 48.3, longitude: -4.5, speedKnots: 12.3, courseDegrees: 250.1, headingDegrees: 250, second: null });
    assert.equal(b.kind, 'position');
    assert.deepEqual(b.kind === 'position' && [b.mmsi, b.latitude, b.longitude, b.speedKnots], [227006761, -33.85, 151.2, 5.5]);
    assert.deepEqual(none.kind === 'position' && [none.speedKnots, none.courseDegrees, none.headingDegrees], [null, null, null]);
  });

  test('a type 5 in two fragments gives the IMO number, name, call sign and destination', () => {
    const [first, second] = voyage(353136000, 9811000, 'EVER GIVEN', 3);
    const [partial, report] = decodeAll([first, second]);
    assert.deepEqual(partial, { kind: 'partial' });
    assert.deepEqual(report, { kind: 'static', mmsi: 353136000, imo: '9811000', name: 'EVER GIVEN', callSign: 'TEST1', shipType: 71, destination: 'NLRTM' });
  });

  test('fragments of two messages interleaved on one feed are told apart by their sequential id', () => {
    const [a1, a2] = voyage(111000001, 9811000, 'ONE', 1);
    const [b1, b2] = voyage(111000002, 9893890, 'TWO', 2);
    const reports = decodeAll([a1, b1, position(111000003, 1, 2), b2, a2]).filter((d) => d.kind === 'static');
    assert.deepEqual(reports.map((r) => r.kind === 'static' && [r.mmsi, r.imo]), [[111000002, '9893890'], [111000001, '9811000']]);
  });

  test('a last fragment without its first, or after a first of another message with the same id, is skipped and counted', () => {
    const skipped = { checksum: 0, malformed: 0, fragment: 0, unsupported: 0, unavailable: 0 };
    const decoder = new AisSentenceDecoder(skipped);
    const [a1, a2] = voyage(111000001, 9811000, 'ONE', 4);
    const [b1] = voyage(111000002, 9893890, 'TWO', 4);
    assert.deepEqual(reasonOf(decoder.decode(a2)), 'fragment', 'second fragment alone');
    decoder.decode(a1);
    decoder.decode(b1); // the same id again: the first message can never complete
    assert.equal(skipped.fragment, 1, 'the abandoned message counts');
    const corrupted = b1.slice(0, -2) + (b1.endsWith('00') ? '01' : '00');
    assert.equal(reasonOf(decoder.decode(corrupted)), 'checksum');
    assert.equal(skipped.fragment, 1, 'a corrupted first fragment does not displace the message in progress');
    decoder.reset();
    assert.equal(skipped.fragment, 2, 'the connection dropped with a message unfinished');
  });

  test('first fragments under ever new ids keep at most MAX_MESSAGES_IN_PROGRESS messages apart; the rest are counted', () => {
    const skipped = { checksum: 0, malformed: 0, fragment: 0, unsupported: 0, unavailable: 0 };
    const decoder = new AisSentenceDecoder(skipped);
    for (let id = 0; id < 1000; id++) assert.equal(decoder.decode(withChecksum(`!AIVDM,2,1,${id},A,${'5'.repeat(60)},0`)).kind, 'partial');
    assert.equal(skipped.fragment, 1000 - MAX_MESSAGES_IN_PROGRESS);
    decoder.reset();
    assert.equal(skipped.fragment, 1000);
  });

  test('bad checksums, garbage and unused message types are skipped with a reason; nothing throws', () => {
    const good = position(227006760, 48.3, -4.5);
    const badChecksum = good.slice(0, -2) + (good.endsWith('00') ? '01' : '00');
    const wrongPayload = withChecksum('!AIVDM,1,1,,A,13HOI:001sOc{{{{{{{{{,0'); // characters outside the 6-bit alphabet
    const lines = [
      badChecksum,
      'garbage',
      '',
      '$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47',
      withChecksum('!AIVDM,1,1,,A'),
      withChecksum('!AIVDM,3,1,,A,13HOI,0'), // multi-sentence without a sequential id
      withChecksum('!AIVDM,12,1,3,A,13HOI,0'), // a fragment count ggencoder throws on
      wrongPayload,
      encode({ aistype: 21, mmsi: 992271000, aid_type: 1, atonname: 'BUOY', lat: 48, lon: -4 } as never),
      encode({ aistype: 1, mmsi: 227006762, navstatus: 0, lat: 91, lon: 181, sog: 0, cog: 0, hdg: 511 }),
      good,
    ];
    assert.deepEqual(decodeAll(lines).map(reasonOf), ['checksum', 'malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'unsupported', 'unavailable', 'position']);
  });

  test('a tag block before the sentence and fields after its checksum are cut off', () => {
    const good = position(227006760, 48.3, -4.5);
    assert.equal(sentenceOf(`\\s:rcvr1,c:1700000000*5B\\${good}`), good);
    assert.equal(sentenceOf(`${good},1700000000`), good);
    assert.equal(sentenceOf('!AIVDM,1,1,,A,13HOI,0*5'), null, 'a checksum cut short');
    assert.equal(decodeAll([`${good},1700000000`])[0].kind, 'position');
  });
});

describe('framing', () => {
  test('lines split across chunks, CRLF or LF, and an over-long line dropped whole', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push('!AIVDM,a\r\n!AIV'), ['!AIVDM,a']);
    assert.deepEqual(splitter.push('DM,b\n\r\n'), ['!AIVDM,b']);
    assert.deepEqual(splitter.push('x'.repeat(MAX_LINE_LENGTH + 1)), []);
    assert.deepEqual(splitter.push('still the same long line\n!AIVDM,c\n'), ['!AIVDM,c']);
    assert.deepEqual(splitter.push(`${'y'.repeat(MAX_LINE_LENGTH + 1)}\n!AIVDM,d\n`), ['!AIVDM,d']);
    assert.equal(splitter.dropped, 2);
  });
});

describe('time of a report', () => {
  const received = Date.parse('2026-03-01T12:00:20.400Z');
  test('the UTC second places the report in the minute of its receipt, or the one before', () => {
    assert.equal(new Date(reportTime(received, 15)).toISOString(), '2026-03-01T12:00:15.000Z');
    assert.equal(new Date(reportTime(received, 21)).toISOString(), '2026-03-01T12:00:21.000Z', 'a receiver clock slightly ahead');
    assert.equal(new Date(reportTime(received, 55)).toISOString(), '2026-03-01T11:59:55.000Z');
  });
  test('without a second, or with one implying more than 30 s of delay, the receipt time stands', () => {
    assert.equal(reportTime(received, null), received);
    assert.equal(reportTime(received, 40), received, '40 s before would be 12:00:40 − 60 s = 40.4 s of delay');
  });
});

describe('downsampling', () => {
  const t0 = Date.parse('2026-03-01T00:00:00Z');
  const s = (sec: number) => t0 + sec * 1000;
  test('one position per interval at sea; sooner on a turn or a stop, but not within 30 s; never an older one', () => {
    const sampler = new PositionSampler(samplingRule(300_000));
    const kept = [
      [0, 15, 90],
      [10, 15, 90], // too soon
      [300, 15, 92], // interval
      [310, 15, 140], // a turn, but within 30 s
      [340, 15, 140], // the turn, 40 s later
      [350, 0.1, 140], // stopped, within 30 s
      [380, 0.1, 140], // stopped
      [680, 0.1, 140], // stopped: interval × 6
      [380 + 1800, 0.1, 140],
      [100, 15, 90], // out of order
      [380 + 1800, 0.1, 140], // the same instant again
      [380 + 1830, 8, 200], // under way again
    ].filter(([sec, sog, cog]) => sampler.keep(1, s(sec), sog, cog));
    assert.deepEqual(kept.map(([sec]) => sec), [0, 300, 340, 380, 2180, 2210]);
  });
  test('vessels are sampled separately', () => {
    const sampler = new PositionSampler(samplingRule(300_000));
    assert.deepEqual([sampler.keep(1, s(0), 10, 0), sampler.keep(2, s(1), 10, 0), sampler.keep(1, s(2), 10, 0)], [true, true, false]);
  });
});

test('retry waits double from the base up to the maximum, the upper half random', () => {
  const backoff = { baseMs: 1000, maxMs: 60_000 };
  assert.deepEqual([1, 2, 3, 7, 8, 50].map((n) => backoffDelay(n, backoff, () => 0)), [500, 1000, 2000, 30_000, 30_000, 30_000]);
  assert.deepEqual([1, 2, 7].map((n) => backoffDelay(n, backoff, () => 0.999999)), [1000, 2000, 60_000]);
});

test('a message cut short is refused rather than read as zeros (a position at 0°N 0°E)', () => {
  const full = position(227006760, 48.3, -4.5);
  const payload = full.split(',')[5];
  const cut = withChecksum(`!AIVDM,1,1,,A,${payload.slice(0, 20)},0`);
  assert.deepEqual(decodeAll([cut]).map(reasonOf), ['malformed']);
});
