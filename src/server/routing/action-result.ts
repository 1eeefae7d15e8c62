import { ACTION_DATA, type ActionData } from "../../shared/routing/inferred-data";

export function actionData<Data>(data: Data, init: { status?: number; headers?: Record<string, string> } = {}): ActionData<Data> {
  return { [ACTION_DATA]: true, data, status: init.status ?? 200, headers: init.headers ?? {} };
}

/** What an action returned, as status, headers and data; a plain value is data with 200. */
export function actionResult(value: unknown): { data: unknown; status: number; headers: Record<string, string> } {
  if (typeof value === "object" && value !== null && (value as Partial<ActionData>)[ACTION_DATA] === true) {
    const { data, status, headers } = value as ActionData;
    return { data, status, headers };
  }
  return { data: value ?? null, status: 200, headers: {} };
}
