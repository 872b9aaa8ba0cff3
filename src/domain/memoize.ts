// A pure function's recent results, for values that repeat: the same dates and port and vessel
// ids recur across a document's records and across requests, the same headers across requests.
// In the domain, the layer every other may import (JSON:API, read model, MCP, the domain's own rules).
// Bounded by starting afresh when full: every value is cheap to compute again, and a plain Map
// lookup is cheaper than an LRU's, which reorders its list on every hit.

export function memoize<K, V>(compute: (key: K) => V, max: number): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      if (cache.size >= max) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
}
