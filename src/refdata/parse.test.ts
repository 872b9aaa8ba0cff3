import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { stableId } from './ids.ts';
import { isMetroArea } from './locations.ts';
import { parseReferenceData, readSources, type ReferenceData } from './parse.ts';
import { parseAltScacs, shortName } from './shipping-lines.ts';

const V5_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('stableId', () => {
  test('is a deterministic version-5 UUID', () => {
    const id = stableId('location', 'USLAX');
    assert.match(id, V5_UUID);
    assert.equal(stableId('location', 'USLAX'), id);
    assert.notEqual(stableId('location', 'USLGB'), id);
    assert.notEqual(stableId('terminal', 'USLAX'), id);
  });

  test('keeps the value it was released with', () => {
    // Checked against Python's uuid.uuid5. Changing it breaks every reference id stored or handed out by existing installs.
    assert.equal(stableId('location', 'USLAX'), 'e06e44e7-a9fb-5bcf-8b1d-c70547ae8f2b');
  });
});

describe('shipping line name helpers', () => {
  test('shortName takes the side of the parenthesis that is an abbreviation', () => {
    assert.equal(shortName('Mediterranean Shipping Company (MSC)'), 'MSC');
    assert.equal(shortName('APL (American President Lines)'), 'APL');
    assert.equal(shortName('China United Lines (CU Lines)'), 'CU Lines');
    assert.equal(shortName('Sealand (Maersk)'), 'Sealand');
    assert.equal(shortName('Hapag-Lloyd'), 'Hapag-Lloyd');
  });

  test('parseAltScacs drops the source notes', () => {
    assert.deepEqual(parseAltScacs('SEAL (T49CSV/T49COV)|SEJJ (T49COV: Sealand Europe)|MCCQ (NXT)'), ['SEAL', 'SEJJ', 'MCCQ']);
    assert.deepEqual(parseAltScacs('CWLQ (T49COV)|CAMN (NXT, listed as CMCU/CAMN)'), ['CWLQ', 'CAMN']);
    assert.deepEqual(parseAltScacs(''), []);
  });
});

describe('reference data files', () => {
  let data: ReferenceData;
  before(async () => {
    data = parseReferenceData(await readSources());
  });

  const location = (locode: string) => data.locations.find((l) => l.locode === locode);
  const line = (scac: string) => data.shippingLines.find((l) => l.scac === scac);

  test('USLAX is a port with a time zone and numeric coordinates', () => {
    const lax = location('USLAX');
    assert.ok(lax);
    assert.equal(lax.id, stableId('location', 'USLAX'));
    assert.equal(lax.is_seaport, true);
    assert.equal(lax.time_zone, 'America/Los_Angeles');
    assert.equal(lax.state_abbr, 'CA');
    assert.equal(typeof lax.latitude, 'number');
    assert.equal(typeof lax.longitude, 'number');
  });

  test('CNSHA is a seaport row aliasing the official Shanghai code', () => {
    const sha = location('CNSHA');
    assert.ok(sha);
    assert.equal(sha.is_seaport, true);
    assert.equal(sha.alias_of, 'CNSGH');
    assert.equal(sha.state_abbr, null); // subdivisions are kept only for US/CA/MX
  });

  test('USCHI is a metro area', () => {
    const chi = location('USCHI');
    assert.ok(chi);
    assert.ok(isMetroArea(chi));
  });

  test('rows without coordinates are kept with null positions', () => {
    const unplaced = data.locations.filter((l) => l.latitude === null);
    assert.ok(unplaced.length > 0);
    assert.ok(unplaced.every((l) => l.longitude === null));
  });

  test('MAEU has a short name and tracking support flags', () => {
    const maersk = line('MAEU');
    assert.ok(maersk);
    assert.equal(maersk.short_name, 'Maersk');
    assert.equal(maersk.bill_of_lading_tracking_support, true);
    assert.equal(maersk.booking_number_tracking_support, true);
    assert.equal(maersk.container_number_tracking_support, true);
  });

  test('MSCU lists MEDU as alternative SCAC', () => {
    assert.deepEqual(line('MSCU')?.alternative_scacs, ['MEDU']);
    assert.equal(line('MSCU')?.short_name, 'MSC');
  });

  test('coverage facts and defaults', () => {
    const evergreen = line('EGLV');
    assert.equal(evergreen?.bill_of_lading_tracking_support, false);
    assert.equal(evergreen?.container_number_tracking_support, true);
    const unlisted = line('ESPU'); // Emirates: not in the coverage list
    assert.equal(unlisted?.bill_of_lading_tracking_support, true);
    assert.equal(unlisted?.booking_number_tracking_support, true);
    assert.equal(unlisted?.container_number_tracking_support, false);
  });

  test('the TEST carrier exists and supports every number type', () => {
    const t = line('TEST');
    assert.ok(t);
    assert.equal(t.name, 'Test Shipping Line');
    assert.ok(t.bill_of_lading_tracking_support && t.booking_number_tracking_support && t.container_number_tracking_support);
  });

  test('SCACs and alternative SCACs never collide', () => {
    const all = data.shippingLines.flatMap((l) => [l.scac, ...l.alternative_scacs]);
    assert.equal(new Set(all).size, all.length);
  });

  test('IMO 9811000 is EVER GIVEN', () => {
    const v = data.vessels.find((x) => x.imo === '9811000');
    assert.equal(v?.name, 'EVER GIVEN');
    assert.equal(v?.id, stableId('vessel', '9811000'));
    assert.equal(v?.mmsi, null);
  });

  test('terminals: FIRMS and SMDG rows merge, ids are unique', () => {
    const withFirms = data.terminals.filter((t) => t.firms_code && t.port_id);
    assert.ok(withFirms.length > 0);
    const ids = data.terminals.map((t) => t.id);
    assert.equal(new Set(ids).size, ids.length);

    const wbct = data.terminals.find((t) => t.firms_code === 'Y773');
    assert.equal(wbct?.smdg_code, 'WBCT');
    assert.equal(wbct?.port_id, stableId('location', 'USLAX'));
    assert.equal(typeof wbct?.latitude, 'number');
    // The SMDG row was merged, not kept beside it.
    assert.equal(data.terminals.filter((t) => t.smdg_code === 'WBCT').length, 1);
  });

  test('terminals: look-alike names at one port stay apart', () => {
    // SSA's Blount Island terminal is not "TOTE TERMINAL BLOUNT ISLAND".
    assert.equal(data.terminals.find((t) => t.firms_code === 'N296')?.smdg_code, null);
    // Of two FIRMS codes for one LBCT terminal, the current one gets the SMDG code.
    assert.equal(data.terminals.find((t) => t.firms_code === 'WAC8')?.smdg_code, 'LBCT');
    assert.equal(data.terminals.find((t) => t.firms_code === 'W183')?.smdg_code, null);
  });

  test('every terminal and rail terminal reference resolves to a location', () => {
    const byId = new Map(data.locations.map((l) => [l.id, l]));
    for (const t of data.terminals) {
      assert.ok(byId.get(t.port_id)?.is_seaport, `terminal ${t.name} port`);
    }
    for (const r of data.railTerminals) {
      const metro = byId.get(r.metro_area_id);
      assert.ok(metro && isMetroArea(metro), `rail terminal ${r.name} metro area`);
      if (r.port_id !== null) assert.ok(byId.get(r.port_id)?.is_seaport, `rail terminal ${r.name} port`);
    }
  });
});
