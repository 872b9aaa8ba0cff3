// Vessels with their AIS positions: GET /v2/vessels/:id (by id or IMO number) with the latest
// position and, on request, the track over a window; and the path a vessel is predicted to sail to
// a port, one point a minute. Tracks and predictions are routing data: an account without the
// feature gets the reference service's 403.
import { z } from 'zod';
import { badParameter, notFound } from '../../jsonapi/errors.ts';
import { booleanParam, optionalParam, timeParam, type Query } from '../../jsonapi/query.ts';
import { vesselResource } from '../../jsonapi/serializers/reference.ts';
import { requireFeature } from '../../services/features.ts';
import { DEFAULT_SPEED_KNOTS, MAX_FUTURE_POSITIONS, predictPositions, showVessel, type PredictionRequest } from '../../services/vessels.ts';
import { isUuid } from '../../store/uuid.ts';
import { recordDocument, resourceSchema } from '../openapi-schemas.ts';
import { trackingClockOf, type AnyRouteSpec, type Ctx, type QueryParamSpec } from '../route.ts';

const FROM = 'show_positions[from_timestamp]';
const TO = 'show_positions[to_timestamp]';
const DAY_MS = 86_400_000;
const DEFAULT_TRACK_DAYS = 7;
/** The longest track one request may ask for: a month of positions a few minutes apart is a few thousand points. */
const MAX_TRACK_DAYS = 31;

/** The 403 every route serving routing data documents. */
export const ROUTING_FORBIDDEN = { 403: 'The routing data feature is not enabled for this account (the operator switches it with svc accounts features)' };

const position = (estimated: string) =>
  z.object({
    latitude: z.number(),
    longitude: z.number(),
    heading: z.number().nullable().describe('Degrees from north (0–359): the true heading, else the course over ground'),
    timestamp: z.iso.datetime(),
    estimated: z.boolean().describe(estimated),
  });

const vesselAttributes = {
  name: z.string(),
  imo: z.string().nullable(),
  mmsi: z.string().nullable().describe('The MMSI the vessel transmits as (from AIS once heard, else the reference data)'),
  latitude: z.number().nullable().describe('Latest AIS position; null without AIS data or without the routing feature'),
  longitude: z.number().nullable(),
  nautical_speed_knots: z.number().nullable().describe('Speed over ground in the latest report, knots'),
  navigational_heading_degrees: z.number().nullable().describe('0 is north, 90 east: the true heading of the latest report, else its course'),
  position_timestamp: z.string().nullable().describe('When the latest position was reported (ISO 8601)'),
};
const vessel = resourceSchema(
  'vessel',
  z.object({ ...vesselAttributes, positions: z.array(position('false: reported by AIS')).optional().describe('The track, only when show_positions is asked for; oldest first') }),
);
const vesselWithPositions = resourceSchema('vessel', z.object({ ...vesselAttributes, positions: z.array(position('true: predicted')) }));
const predictionDocument = z.object({
  data: vesselWithPositions,
  meta: z.object({
    speed_knots: z.number().describe(`The speed the prediction assumed: the vessel's speed over ground in its last hours of reports, else the latest reported one, or ${DEFAULT_SPEED_KNOTS} knots when neither is a passage speed`),
    distance_nm: z.number().describe('Sea-route distance from the start to the port, nautical miles'),
    arrival_at: z.iso.datetime().describe('Predicted arrival at the port'),
    truncated: z.boolean().describe(`True when the path was cut after ${MAX_FUTURE_POSITIONS} positions (30 days) before reaching the port`),
  }),
  links: z.object({ self: z.string() }),
});

const uuidParam = (name: string, description: string): QueryParamSpec => ({ name, description, required: true, schema: { type: 'string', format: 'uuid' } });
const portParams = [uuidParam('port_id', 'The destination port (its id)'), uuidParam('previous_port_id', 'The port the vessel left before it (its id)')];
const coordinateParams: QueryParamSpec[] = [
  { name: 'latitude', description: 'Start latitude, degrees (-90 to 90)', required: true, schema: { type: 'number', minimum: -90, maximum: 90 } },
  { name: 'longitude', description: 'Start longitude, degrees (-180 to 180)', required: true, schema: { type: 'number', minimum: -180, maximum: 180 } },
];

function requiredParam(query: Query, name: string): string {
  const value = optionalParam(query, name);
  if (value === undefined) throw badParameter(name, `${name} is required.`, 'required');
  return value;
}

function uuidValue(query: Query, name: string): string {
  const value = requiredParam(query, name);
  if (!isUuid(value)) throw badParameter(name, `${name} must be a port id (a UUID).`);
  return value;
}

function degrees(query: Query, name: string, limit: number): number {
  const value = requiredParam(query, name);
  const number = Number(value);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(value) || Math.abs(number) > limit) throw badParameter(name, `${name} must be a number of degrees from -${limit} to ${limit}.`);
  return number;
}

/** The track window the query asks for, or undefined when it asks for none. */
function trackWindow(ctx: Ctx<undefined>): { from: Date; to: Date } | undefined {
  const { query } = ctx;
  const asked = booleanParam(query, 'show_positions') ?? (optionalParam(query, FROM) !== undefined || optionalParam(query, TO) !== undefined);
  if (!asked) return undefined;
  // Before the window is checked: without the feature, any request for positions is a 403.
  requireFeature(ctx, 'routing');
  const to = timeParam(query, TO) ?? ctx.services.clock.now();
  const from = timeParam(query, FROM) ?? new Date(to.getTime() - DEFAULT_TRACK_DAYS * DAY_MS);
  if (from > to) throw badParameter(FROM, `${FROM} is after ${TO}: no position is in that window.`);
  if (to.getTime() - from.getTime() > MAX_TRACK_DAYS * DAY_MS) throw badParameter(FROM, `The window from ${FROM} to ${TO} is longer than ${MAX_TRACK_DAYS} days; ask for it a month at a time.`);
  return { from, to };
}

// The journey's clock (the demo clock when svc serves the sandbox): a vessel is where its container's map shows it.
const deps = (ctx: Ctx<undefined>) => ({ db: ctx.services.db, clock: trackingClockOf(ctx.services), account: ctx });

function predictionRoute(url: string, summary: string, extra: QueryParamSpec[], start: (query: Query) => PredictionRequest['start']): AnyRouteSpec {
  return {
    method: 'GET',
    url,
    summary,
    tag: 'Vessels',
    query: [...portParams, ...extra],
    response: { status: 200, description: 'The vessel with its predicted path, one position a minute, ending at the port', schema: predictionDocument },
    errors: ROUTING_FORBIDDEN,
    async handler(ctx) {
      requireFeature(ctx, 'routing');
      const request = { vessel: ctx.params.id, portId: uuidValue(ctx.query, 'port_id'), previousPortId: uuidValue(ctx.query, 'previous_port_id'), start: start(ctx.query) };
      const p = await predictPositions(deps(ctx), request);
      return {
        body: {
          data: vesselResource(p.vessel, p.latest, p.positions),
          meta: { speed_knots: p.speedKnots, distance_nm: Math.round(p.distanceNm * 10) / 10, arrival_at: p.arrivalAt.toISOString(), truncated: p.truncated },
          links: { self: ctx.url.href },
        },
      };
    },
  };
}

export const vesselRoutes: AnyRouteSpec[] = [
  {
    method: 'GET',
    url: '/v2/vessels/:id',
    summary: 'Get a vessel by id or IMO number, with its latest AIS position and, on request, its track',
    tag: 'Reference data',
    query: [
      { name: 'show_positions', description: `true: include the track over the default window (the ${DEFAULT_TRACK_DAYS} days to now)`, schema: { type: 'boolean' } },
      { name: FROM, description: `Track from (ISO 8601; default ${DEFAULT_TRACK_DAYS} days before the end; at most ${MAX_TRACK_DAYS} days before it). Asks for the track.`, schema: { type: 'string', format: 'date-time' } },
      { name: TO, description: 'Track to (ISO 8601; default now). Asks for the track.', schema: { type: 'string', format: 'date-time' } },
    ],
    response: { status: 200, description: 'The vessel', schema: recordDocument(vessel) },
    errors: ROUTING_FORBIDDEN,
    async handler(ctx) {
      const view = await showVessel(deps(ctx), ctx.params.id, trackWindow(ctx));
      if (!view) throw notFound();
      return { body: { data: vesselResource(view.vessel, view.latest, view.positions) } };
    },
  },
  predictionRoute('/v2/vessels/:id/future_positions', "Predicted path of a vessel from its latest position to a port, one position a minute", [], () => undefined),
  predictionRoute('/v2/vessels/:id/future_positions_with_coordinates', 'Predicted path of a vessel from given coordinates to a port, one position a minute', coordinateParams, (query) => ({
    latitude: degrees(query, 'latitude', 90),
    longitude: degrees(query, 'longitude', 180),
  })),
];
