// Whether a value is plain JSON data: what JSON.parse could have made, so that a JSON round trip
// would give back an equal value. Strings, finite numbers, booleans, null, arrays of these and
// objects of these made by object literals; nothing JSON.stringify would turn into something
// else (a Date, NaN, an undefined member, a toJSON method, a Map) and no cycle.

/** Deeper than any document svc sends; a deeper value is treated as not plain (maybe a cycle). */
const MAX_DEPTH = 64;

export function isJsonData(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isJsonData(value[i], depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      const record = value as Record<string, unknown>;
      // for...in reads an object's own members (Object.prototype has no enumerable ones) and
      // makes no array of names, as Object.keys would.
      for (const name in record) if (name === 'toJSON' || !isJsonData(record[name], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
