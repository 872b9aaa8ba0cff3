/** Every record an async generator yields (every page of an SDK iterate()). */
export async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}
