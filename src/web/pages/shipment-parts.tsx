// The parts of the shipment page: its header (numbers, line, ports, ETA and how it moved,
// freshness), the container cards (status, holds, fees, last free day, availability) and the
// milestone timelines, in each place's own time.
import type { ComponentChildren } from 'preact';
import { containerStatusWords, equipmentWords, estimateShift, localDate, localDateTime, milestoneWords, money, relativeTime, trackingStoppedWords, utcTitle } from '../format.ts';
import type { ContainerRecord, EventRecord, PlaceRecord, ShipmentRecord, TerminalRecord } from './shipment-data.tsx';
import type { SituationPickup } from '../../domain/tracking/situation.ts';
import { placeText, situationText } from '../../domain/tracking/situation-text.ts';

/** The link that selects a container (the page is its own URL with ?container=). */
export const containerHref = (containerId: string) => `?container=${encodeURIComponent(containerId)}#container-${containerId}`;

/** An instant as a `<time>`: local words, machine-readable datetime, the UTC instant on hover. */
function When({ iso, zone, now, dateOnly = false }: { iso: string; zone: string | null | undefined; now: Date; dateOnly?: boolean }) {
  return (
    <time datetime={iso} title={utcTitle(iso)}>
      {dateOnly ? localDate(iso, zone, now) : localDateTime(iso, zone, now)}
    </time>
  );
}

const place = (name: string | null | undefined, locode: string | null | undefined): string | null =>
  name && locode ? `${name} (${locode})` : (name ?? locode ?? null);

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Header
// ---------------------------------------------------------------------------------------------

/** "ETA 28 Nov (was 25 Nov, +3 d)", or the arrival once the vessel is in. */
function Arrival({ shipment: s, now }: { shipment: ShipmentRecord; now: Date }) {
  const zone = s.pod_timezone;
  if (s.pod_ata_at) {
    return (
      <>
        Arrived <When iso={s.pod_ata_at} zone={zone} now={now} />
      </>
    );
  }
  if (!s.pod_eta_at) return <span class="muted">No estimate yet</span>;
  const shift = s.pod_original_eta_at ? estimateShift(s.pod_eta_at, s.pod_original_eta_at) : null;
  return (
    <>
      ETA <When iso={s.pod_eta_at} zone={zone} now={now} dateOnly />
      {shift && s.pod_original_eta_at && (
        <span class={`eta-shift ${shift.startsWith('+') ? 'later' : 'earlier'}`}>
          {' '}
          (was <When iso={s.pod_original_eta_at} zone={zone} now={now} dateOnly />, {shift})
        </span>
      )}
      {s.pod_ais_eta_at && (
        <span class="muted">
          {' '}
          · svc's AIS estimate <When iso={s.pod_ais_eta_at} zone={zone} now={now} />
        </span>
      )}
    </>
  );
}

function Freshness({ shipment: s, now }: { shipment: ShipmentRecord; now: Date }) {
  if (s.line_tracking_stopped_at) {
    return (
      <p class="alert info tracking-stopped" role="status">
        Tracking stopped <When iso={s.line_tracking_stopped_at} zone={null} now={now} dateOnly />: {trackingStoppedWords(s.line_tracking_stopped_reason)}.
      </p>
    );
  }
  const heard = s.line_tracking_last_succeeded_at;
  const tried = s.line_tracking_last_attempted_at;
  return (
    <p class="freshness muted">
      {heard ? (
        <>
          Checked with {s.shipping_line_short_name ?? s.shipping_line_scac}{' '}
          <time datetime={heard} title={utcTitle(heard)}>
            {relativeTime(heard, now)}
          </time>
        </>
      ) : (
        'Not heard from the shipping line yet'
      )}
      {tried && (!heard || tried > heard) && (
        <>
          {' '}
          · last attempt{' '}
          <time datetime={tried} title={utcTitle(tried)}>
            {relativeTime(tried, now)}
          </time>{' '}
          got no answer
        </>
      )}
    </p>
  );
}

type Freshness = ShipmentRecord['data_freshness'];

const SOURCES: [keyof Freshness, string][] = [
  ['shipping_line', 'Shipping line'],
  ['terminal', 'Terminal'],
  ['ais', 'AIS'],
];

function Ago({ iso, now }: { iso: string | null; now: Date }) {
  return iso ? (
    <time datetime={iso} title={utcTitle(iso)}>
      {relativeTime(iso, now)}
    </time>
  ) : (
    <span class="muted">never</span>
  );
}

/** When each source was last checked and last changed what the page shows, in relative times (the instant on hover). */
export function DataFreshness({ freshness, now }: { freshness: Freshness; now: Date }) {
  return (
    <div class="data-freshness muted">
      <span class="data-freshness-title">Data freshness</span>
      <ul>
        {SOURCES.map(([source, label]) => (
          <li data-source={source}>
            {label}: checked <Ago iso={freshness[source].checked_at} now={now} />, changed <Ago iso={freshness[source].changed_at} now={now} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ShipmentHeader({ shipment: s, now }: { shipment: ShipmentRecord; now: Date }) {
  const line = s.shipping_line_name ?? s.shipping_line_short_name;
  const pol = place(s.port_of_lading_name, s.port_of_lading_locode);
  const pod = place(s.port_of_discharge_name, s.port_of_discharge_locode);
  const destination = place(s.destination_name, s.destination_locode);
  return (
    <header class="shipment-head" data-live-region="shipment-header">
      <p class="eyebrow">
        Shipment · {line ? `${line} (${s.shipping_line_scac})` : s.shipping_line_scac}
      </p>
      <h1>
        B/L <span class="number">{s.bill_of_lading_number}</span>
      </h1>
      <p class="route-line">
        <span>{pol ?? 'Port of lading not known yet'}</span>
        <span aria-hidden="true"> → </span>
        <span class="visually-hidden"> to </span>
        <span>{pod ?? 'port of discharge not known yet'}</span>
        {destination && (
          <>
            <span aria-hidden="true"> → </span>
            <span class="visually-hidden"> then </span>
            <span>{destination}</span>
          </>
        )}
      </p>
      <Freshness shipment={s} now={now} />
      <DataFreshness freshness={s.data_freshness} now={now} />
      <dl class="facts">
        <Fact term="Arrival at POD">
          <Arrival shipment={s} now={now} />
        </Fact>
        <Fact term="Departure from POL">
          {s.pol_atd_at ? (
            <>
              Departed <When iso={s.pol_atd_at} zone={s.pol_timezone} now={now} />
            </>
          ) : s.pol_etd_at ? (
            <>
              ETD <When iso={s.pol_etd_at} zone={s.pol_timezone} now={now} />
            </>
          ) : (
            <span class="muted">Not known yet</span>
          )}
        </Fact>
        {s.pod_vessel_name && (
          <Fact term="Vessel">
            {s.pod_vessel_name}
            {s.pod_voyage_number && <span class="muted"> · voyage {s.pod_voyage_number}</span>}
            {s.pod_vessel_imo && <span class="muted"> · IMO {s.pod_vessel_imo}</span>}
          </Fact>
        )}
        <Fact term="Carrier">
          {line ?? s.shipping_line_scac} <span class="muted">SCAC {s.shipping_line_scac}</span>
        </Fact>
        {s.booking_number && <Fact term="Booking">{s.booking_number}</Fact>}
        {s.pod_terminal?.name && <Fact term="Discharge terminal">{s.pod_terminal.name}</Fact>}
        {destination && (
          <Fact term="Destination">
            {destination}
            {s.destination_ata_at ? (
              <>
                {' '}
                · arrived <When iso={s.destination_ata_at} zone={s.destination_timezone} now={now} />
              </>
            ) : (
              s.destination_eta_at && (
                <>
                  {' '}
                  · ETA <When iso={s.destination_eta_at} zone={s.destination_timezone} now={now} />
                </>
              )
            )}
          </Fact>
        )}
        {s.ref_numbers.length > 0 && <Fact term="Reference numbers">{s.ref_numbers.join(', ')}</Fact>}
        {s.customer_name && <Fact term="Customer">{s.customer_name}</Fact>}
      </dl>
    </header>
  );
}

// ---------------------------------------------------------------------------------------------
// Containers
// ---------------------------------------------------------------------------------------------

type Hold = ContainerRecord['holds_at_pod_terminal'][number];

function HoldBadge({ hold }: { hold: Hold }) {
  const name = hold.name.charAt(0).toUpperCase() + hold.name.slice(1);
  return (
    <li>
      <span class={`badge ${hold.status === 'hold' ? 'bad' : 'warn'}`}>{hold.status === 'hold' ? `${name} hold` : `${name} hold pending`}</span>
      {hold.description && <span class="muted"> {hold.description}</span>}
    </li>
  );
}

function terminalWords(terminal: TerminalRecord | null | undefined): string | null {
  if (!terminal?.name) return null;
  return terminal.firms_code ? `${terminal.name} (${terminal.firms_code})` : terminal.name;
}

function LastFreeDay({ container: c, pickup, now }: { container: ContainerRecord; pickup: SituationPickup; now: Date }) {
  const lfd = pickup.last_free_day;
  const iso = lfd?.source === 'rail' ? c.import_deadlines.pickup_lfd_rail : c.import_deadlines.pickup_lfd_terminal;
  if (!lfd || !iso) return <span class="muted">Not set</span>;
  const left = Math.ceil((new Date(iso).getTime() - now.getTime()) / 86_400_000);
  return (
    <>
      <When iso={iso} zone={lfd.timezone} now={now} dateOnly />
      {left < 0 ? <span class="badge bad">passed</span> : left <= 2 ? <span class="badge warn">{left === 0 ? 'today' : `${left} d left`}</span> : null}
    </>
  );
}

/** Availability where the box is picked up: the port terminal, or the inland ramp for a rail move. */
function Availability({ pickup }: { pickup: SituationPickup }) {
  if (pickup.availability === 'unknown') return <span class="muted">No terminal report</span>;
  const held = pickup.holds.some((h) => h.status === 'hold');
  if (pickup.availability === 'available' && !held) return <span class="badge ok">Ready for pickup</span>;
  if (pickup.availability === 'available') return <span class="badge warn">Available, but on hold</span>;
  return <span class="badge warn">Not available</span>;
}

/** `focus`: the card was asked for by ?container=, so it takes the keyboard focus as the page opens. */
export function ContainerCard({ container: c, selected, focus, now }: { container: ContainerRecord; selected: boolean; focus: boolean; now: Date }) {
  const equipment = equipmentWords(c.equipment_type, c.equipment_length, c.equipment_height);
  const situation = c.situation;
  const pickup = situation.pickup;
  const location = situationText(situation);
  // The discharge terminal is where the box is picked up only when it does not go on by rail.
  const terminal = pickup?.place.role === 'inland_destination' ? null : terminalWords(c.pod_terminal);
  const pickupPlace = pickup ? [placeText(pickup.place), pickup.place.terminal_code && pickup.place.role === 'inland_destination' ? `ramp ${pickup.place.terminal_code}` : null].filter(Boolean).join(', ') : null;
  const holds = pickup?.holds ?? [];
  const fees = (pickup?.fees ?? []).filter((f) => f.type !== 'total');
  const total = pickup?.fees.find((f) => f.type === 'total');
  return (
    <li class={`container-card${selected ? ' selected' : ''}`} id={`container-${c.id}`} tabIndex={selected ? -1 : undefined} autofocus={focus || undefined}>
      <h3>
        <a href={containerHref(c.id)} aria-current={selected ? 'true' : undefined} class="container-number">
          {c.number}
        </a>
        {selected && <span class="visually-hidden"> (selected)</span>}
      </h3>
      <p class="container-sub">
        <span class={`badge status-${c.current_status}`}>{containerStatusWords(c.current_status)}</span>
        {equipment && <span class="muted"> {equipment}</span>}
      </p>
      <dl class="facts compact">
        <Fact term="Holds">
          {holds.length === 0 ? (
            <span class="muted">None</span>
          ) : (
            <ul class="holds">
              {holds.map((h) => (
                <HoldBadge hold={h} />
              ))}
            </ul>
          )}
        </Fact>
        <Fact term="Pickup">{pickup ? <Availability pickup={pickup} /> : <span class="muted">{situation.kind === 'empty_returned' ? 'Picked up, empty returned' : 'Picked up'}</span>}</Fact>
        {pickupPlace && <Fact term="Pickup at">{pickupPlace}</Fact>}
        {pickup && (
          <Fact term="Last free day">
            <LastFreeDay container={c} pickup={pickup} now={now} />
          </Fact>
        )}
        {(fees.length > 0 || total) && (
          <Fact term="Fees">
            <ul class="fees">
              {fees.map((f) => (
                <li>
                  {f.type.replaceAll('_', ' ')}: {money(f.amount, f.currency_code)}
                </li>
              ))}
              {total && <li class="total">total: {money(total.amount, total.currency_code)}</li>}
            </ul>
          </Fact>
        )}
        {terminal && <Fact term="Terminal">{terminal}</Fact>}
        <Fact term="Location">{location}</Fact>
      </dl>
      <DataFreshness freshness={c.data_freshness} now={now} />
    </li>
  );
}

// ---------------------------------------------------------------------------------------------
// Milestone timeline
// ---------------------------------------------------------------------------------------------

interface Milestone {
  key: string;
  at: string;
  zone: string | null;
  label: string;
  place: string | null;
  vessel: string | null;
  voyage: string | null;
  estimated: boolean;
  ais: boolean;
}

const placeOf = (location: PlaceRecord | null | undefined, locode: string | null) => place(location?.name, locode ?? location?.code);

/** The container's recorded milestones, oldest first, then what is still expected of it. */
export function milestonesOf(shipment: ShipmentRecord, container: ContainerRecord): Milestone[] {
  const events = container.transport_events ?? [];
  const happened = new Set(events.filter((e) => !e.event.includes('.estimated.')).map((e) => e.event));
  // An estimate leaves the timeline once the event it announced has happened.
  const arrivedInland = happened.has('container.transport.arrived_at_inland_destination') || happened.has('container.transport.rail_arrived') || container.ind_ata_at !== null;
  const superseded = (e: EventRecord) => e.event.includes('.estimated.') && (happened.has(e.event.replace('.estimated.', '.')) || (e.event.endsWith('arrived_at_inland_destination') && arrivedInland));
  const actual: Milestone[] = events
    .filter((e): e is EventRecord & { timestamp: string } => e.timestamp !== null && !superseded(e))
    .map((e) => ({
      key: e.id,
      at: e.timestamp,
      zone: e.timezone ?? e.location?.time_zone ?? null,
      label: milestoneWords(e.event),
      place: [e.terminal?.name, placeOf(e.location, e.location_locode)].filter(Boolean).join(', ') || null,
      vessel: e.vessel?.name ?? null,
      voyage: e.voyage_number,
      estimated: e.event.includes('.estimated.'),
      ais: e.data_source === 'ais',
    }));
  const s = shipment;
  const expected: Milestone[] = [];
  const departed = s.pol_atd_at || container.pol_vessel_departed_at;
  if (!departed && s.pol_etd_at) {
    expected.push({ key: 'etd', at: s.pol_etd_at, zone: s.pol_timezone, label: 'Vessel departure', place: place(s.port_of_lading_name, s.port_of_lading_locode), vessel: null, voyage: null, estimated: true, ais: false });
  }
  if (!s.pod_ata_at && !container.pod_arrived_at && s.pod_eta_at) {
    expected.push({ key: 'eta', at: s.pod_eta_at, zone: s.pod_timezone, label: 'Vessel arrival', place: place(s.port_of_discharge_name, s.port_of_discharge_locode), vessel: s.pod_vessel_name, voyage: s.pod_voyage_number, estimated: true, ais: false });
  }
  if (!arrivedInland && container.ind_eta_at) {
    expected.push({ key: 'ind-eta', at: container.ind_eta_at, zone: container.final_destination_timezone, label: 'Arrival at inland destination', place: place(s.destination_name, s.destination_locode), vessel: null, voyage: null, estimated: true, ais: false });
  }
  return [...actual, ...expected.sort((a, b) => a.at.localeCompare(b.at))];
}

export function Timeline({ shipment, container, now }: { shipment: ShipmentRecord; container: ContainerRecord; now: Date }) {
  const milestones = milestonesOf(shipment, container);
  if (milestones.length === 0) return <p class="muted">No milestones yet.</p>;
  return (
    <ol class="timeline">
      {milestones.map((m) => (
        <li class={m.estimated ? 'estimated' : 'actual'} data-milestone={m.key}>
          <When iso={m.at} zone={m.zone} now={now} />
          <span class="milestone">
            <strong>{m.label}</strong>
            {m.estimated ? <span class="badge">Expected</span> : <span class="visually-hidden"> (actual)</span>}
            {m.ais && <span class="badge" title="Seen in the vessel's AIS positions before the carrier reported it">AIS</span>}
          </span>
          {m.place && <span class="where">{m.place}</span>}
          {(m.vessel || m.voyage) && (
            <span class="vessel muted">
              {m.vessel}
              {m.voyage && ` · voyage ${m.voyage}`}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
