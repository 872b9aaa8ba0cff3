// Ids reach SQL only when they are uuids: Postgres rejects a malformed uuid with an error,
// and a lookup by a malformed id is simply "not found".
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (s: string): boolean => UUID.test(s);
