/** The mark of actionData()'s value, registered so that two copies of a module still agree. */
export const ACTION_DATA: unique symbol = Symbol.for("outpost.action-data");

/** An action's data with the status (and headers) to answer with: 422 for invalid input, say. */
export interface ActionData<Data = unknown> {
  readonly [ACTION_DATA]: true;
  data: Data;
  status: number;
  headers: Record<string, string>;
}

/**
 * The data a client sees from a loader or action's type: `typeof action` gives what it returns,
 * awaited, with `actionData(data, { status })` unwrapped to its data (a thrown `redirect()` or
 * `httpError()` returns `never` and adds nothing). Any other type is taken as the data itself.
 */
export type DataOf<Source> = Source extends (...args: never[]) => infer Result ? Unwrapped<Awaited<Result>> : Source;

type Unwrapped<Value> = Value extends ActionData<infer Data> ? Data : Value;
