// A POST's body read as JSON once, for counting its messages and for the direct transport.

/** A body's JSON (`value` undefined when it is not JSON). */
export function parsedJson(body: string): { value: unknown } {
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return { value: undefined };
  }
}
