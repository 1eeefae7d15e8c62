import type { ActionData } from "./action-result";

/**
 * The data a client sees from a loader or action's type: `typeof action` gives what it returns,
 * awaited, with `actionData(data, { status })` unwrapped to its data (a thrown `redirect()` or
 * `httpError()` returns `never` and adds nothing). Any other type is taken as the data itself.
 */
export type DataOf<Source> = Source extends (...args: never[]) => infer Result ? Unwrapped<Awaited<Result>> : Source;

type Unwrapped<Value> = Value extends ActionData<infer Data> ? Data : Value;
