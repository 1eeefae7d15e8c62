import type { RequestValueKey } from "../../shared/routing/request";

/** A typed slot for a value middleware sets on `values` for the loaders and actions below it: `requestValue<User>("user")`. */
export function requestValue<Value>(name: string): RequestValueKey<Value> {
  return { name };
}
