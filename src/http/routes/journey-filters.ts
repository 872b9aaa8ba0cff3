// The filters GET /v2/shipments and GET /v2/containers share: what the MCP server's list tools
// (status, port, carrier, updated_after), the web app's shipments list (ports of lading too) and the reference SDK (filter[status], filter[pod_locode],
// filter[line_scac], filter[updated_at]) ask of both lists. Declared once for OpenAPI, read once.
import { LOCODE, SCAC } from '../../domain/codes.ts';
import { CONTAINER_STATUSES } from '../../domain/tracking/types.ts';
import { codeLike, listParam, oneOf, timeRangeParam, type Query } from '../../jsonapi/query.ts';
import type { JourneyFilters } from '../../store/tracking-lists.ts';
import { timeRangeParams } from '../openapi-schemas.ts';
import type { QueryParamSpec } from '../route.ts';

const status = oneOf(CONTAINER_STATUSES);
const locode = codeLike(LOCODE, 'a UN/LOCODE (two letters and three letters or digits 2-9, e.g. USLAX)');
const scac = codeLike(SCAC, 'a SCAC (four letters or digits, e.g. MAEU)');

/** A comma-separated list of strings of `length` characters, in any case. */
const codes = (length: number) => ({ type: 'array', items: { type: 'string', minLength: length, maxLength: length } });

/** The parameters, described for the records of `subject`. */
export function journeyFilterParams(subject: 'shipment' | 'container'): QueryParamSpec[] {
  const viaShipment = subject === 'container' ? " (the container's shipment's)" : '';
  return [
    {
      name: 'filter[status]',
      description:
        subject === 'shipment'
          ? "Shipments with at least one container in this current_status (comma-separated: any of them)"
          : 'Containers in this current_status (comma-separated: any of them)',
      schema: { type: 'array', items: { type: 'string', enum: [...CONTAINER_STATUSES] } },
      commaSeparated: true,
    },
    {
      name: 'filter[port]',
      description: `UN/LOCODE of the port of lading, the port of discharge or the destination${viaShipment}, in any case (comma-separated: any of them)`,
      schema: codes(5),
      commaSeparated: true,
    },
    {
      name: 'filter[pol_locode]',
      description: `UN/LOCODE of the port of lading${viaShipment}, in any case (comma-separated: any of them)`,
      schema: codes(5),
      commaSeparated: true,
    },
    {
      name: 'filter[pod_locode]',
      description: `UN/LOCODE of the port of discharge${viaShipment}, in any case (comma-separated: any of them)`,
      schema: codes(5),
      commaSeparated: true,
    },
    {
      name: 'filter[line_scac]',
      description: `SCAC of the shipping line${viaShipment}, or one of its alternative SCACs, in any case (comma-separated: any of them)`,
      schema: codes(4),
      commaSeparated: true,
    },
    ...timeRangeParams('filter[updated_at]', subject === 'shipment' ? 'Shipment updated' : 'Container updated'),
  ];
}

/** The values of the parameters; a 400 naming the parameter for one that is malformed. */
export function journeyFilterValues(query: Query): JourneyFilters {
  return {
    status: listParam(query, 'filter[status]', status),
    port: listParam(query, 'filter[port]', locode),
    pol_locode: listParam(query, 'filter[pol_locode]', locode),
    pod_locode: listParam(query, 'filter[pod_locode]', locode),
    line_scac: listParam(query, 'filter[line_scac]', scac),
    updated: timeRangeParam(query, 'filter[updated_at]'),
  };
}
