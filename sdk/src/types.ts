// Names for the generated operation types (schema.ts): each resource's plain record, the query
// each list takes and the attributes each write sends.
import type { operations } from './schema.ts';
import type { Record_ } from './records.ts';

type Content<Op, Status extends number> = Op extends { responses: { [S in Status]: { content: infer C } } } ? C[keyof C] : never;
type DataOf<Op, Status extends number = 200> = Content<Op, Status> extends { data: infer D } ? D : never;
type ItemOf<Op, Status extends number = 200> = DataOf<Op, Status> extends (infer E)[] ? E : DataOf<Op, Status>;

/** The plain record an operation answers with (its data, or one item of a list). */
export type RecordOf<Op extends keyof operations, Status extends number = 200> = Record_<ItemOf<operations[Op], Status>>;
/** The JSON body an operation answers with. */
export type BodyOf<Op extends keyof operations, Status extends number = 200> = Content<operations[Op], Status>;

type RawQuery<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** An operation's query parameters by their wire names (`page[number]`, `filter[status]`…); `include` may be a list. */
export type QueryOf<Op extends keyof operations> = Omit<RawQuery<Op>, 'include'> & ('include' extends keyof RawQuery<Op> ? { include?: string | string[] } : {});

// The JSON:API body where an operation takes others too (POST /v2/documents also takes a multipart form).
type RequestBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: infer C } } ? (C extends { 'application/vnd.api+json': infer J } ? J : C[keyof C]) : never;
/** The attributes a JSON:API write of this operation sends. */
export type AttributesOf<Op extends keyof operations> = RequestBody<Op> extends { data: { attributes?: infer A } } ? NonNullable<A> : never;

export type TrackingRequest = RecordOf<'getV2TrackingRequestsId'>;
export type Shipment = RecordOf<'getV2ShipmentsId'>;
export type Container = RecordOf<'getV2ContainersId'>;
export type TransportEvent = RecordOf<'getV2TransportEventsId'>;
export type EstimatedEvent = RecordOf<'getV2EstimatedEventsId'>;
export type ContainerUpdatedEvent = RecordOf<'getV2ContainerUpdatedEventsId'>;
export type RawEvent = RecordOf<'getV2ContainersIdRawEvents'>;
export type SearchResult = RecordOf<'getV2Search'>;
export type ShippingLine = RecordOf<'getV2ShippingLinesId'>;
export type Port = RecordOf<'getV2PortsId'>;
export type MetroArea = RecordOf<'getV2MetroAreasId'>;
export type Terminal = RecordOf<'getV2TerminalsId'>;
export type RailTerminal = RecordOf<'getV2RailTerminalsId'>;
export type Vessel = RecordOf<'getV2VesselsId'>;
export type VesselWithPositions = RecordOf<'getV2VesselsIdFuturePositions'>;
export type Account = RecordOf<'getV2Account'>;
export type Party = RecordOf<'getV2PartiesId'>;
export type Webhook = RecordOf<'getV2WebhooksId'>;
export type WebhookNotification = RecordOf<'getV2WebhookNotificationsId'>;
export type InferResult = RecordOf<'postV2TrackingRequestsInferNumber'>;
export type CustomFieldDefinition = RecordOf<'getV2CustomFieldDefinitionsId'>;
export type CustomFieldOption = RecordOf<'getV2CustomFieldDefinitionsIdOptionsOptionId'>;
export type CustomField = RecordOf<'getV2CustomFieldsId'>;
export type Document = RecordOf<'getV2DocumentsId'>;
export type DocumentSchema = RecordOf<'getV2DocumentSchemasId'>;
export type EmailSubmission = RecordOf<'getV2EmailSubmissionsId'>;
