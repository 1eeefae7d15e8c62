import { useContext } from "react";
import type { DataOf } from "../routing/inferred-data";
import { ActionDataContext } from "./action-data";

/** The first message for each field that failed, by field name. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/**
 * The data the page's action returned (with its 422 errors, say), until the next navigation:
 * `useActionData<typeof action>()` infers it from the action (a data type works too).
 */
export function useActionData<Source = unknown>(): DataOf<Source> | undefined {
  return useContext(ActionDataContext) as DataOf<Source> | undefined;
}
