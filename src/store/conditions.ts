// A WHERE clause made of the filters a request actually gives. Every statement runs as a named
// prepared statement (db.ts), which PostgreSQL may switch to a generic plan: one written for any
// value, null included. A catch-all such as `($2::text IS NULL OR scac = $2)` then cannot use an
// index on scac, so instead each condition is written only when its filter is present and the
// planner sees exactly the conditions there are. The texts differ by which filters are present,
// never by their values (a list travels as one array parameter; one value alone is written as
// such, see oneOf), so they stay a small set.

/** Inclusive bounds on an instant; either may be left open. */
export interface TimeRange {
  start?: Date;
  end?: Date;
}

export class Conditions {
  readonly params: unknown[];
  readonly #parts: string[] = [];

  /** `params` is shared with the statement the conditions go into (and with nested ones). */
  constructor(params: unknown[] = []) {
    this.params = params;
  }

  /** The placeholder (`$n`) of a value, which travels as a parameter. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds `condition(placeholder)` when `value` is given; nothing when it is undefined. */
  when<T>(value: T | undefined, condition: (placeholder: string) => string): this {
    if (value !== undefined) this.#parts.push(condition(this.param(value)));
    return this;
  }

  /**
   * `sql` is one of `values` (absent: no condition). One value is written `= $n`, which an index
   * holding `sql` before the list's order reads in that order (migration 015); `= ANY($n)` over
   * several is found through the same index but sorted after.
   */
  oneOf(sql: string, values: readonly unknown[] | undefined): this {
    if (values?.length === 1) return this.when(values[0], (p) => `${sql} = ${p}`);
    return this.when(values, (p) => `${sql} = ANY(${p})`);
  }

  /**
   * `ifTrue` when `flag` is true, `ifFalse` when it is false, nothing when it is absent: the two
   * answers of a yes/no filter written apart, as each is served by a different index (or none).
   */
  either(flag: boolean | undefined, ifTrue: string, ifFalse: string): this {
    if (flag !== undefined) this.#parts.push(flag ? ifTrue : ifFalse);
    return this;
  }

  /** `column` within the range's bounds (each inclusive, either open). */
  within(column: string, range: TimeRange | undefined): this {
    return this.when(range?.start, (p) => `${column} >= ${p}`).when(range?.end, (p) => `${column} <= ${p}`);
  }

  /** Conditions on another table of the same statement: they number their values after these. */
  nested(): Conditions {
    return new Conditions(this.params);
  }

  /** Adds the nested conditions through `wrap` (a subquery around them), when there are any. */
  whenAny(nested: Conditions, wrap: (sql: string) => string): this {
    if (!nested.isEmpty) this.#parts.push(wrap(nested.sql));
    return this;
  }

  /** How many conditions there are. */
  get size(): number {
    return this.#parts.length;
  }

  get isEmpty(): boolean {
    return this.size === 0;
  }

  /** The conditions joined by AND; TRUE when there are none. */
  get sql(): string {
    return this.isEmpty ? 'TRUE' : this.#parts.join('\n    AND ');
  }
}
