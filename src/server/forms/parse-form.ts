import type { FieldErrors } from "../../shared/forms/page-forms";

/** What the helpers read of a failed validation: zod's error has it (and any Standard Schema's result). */
export interface ValidationIssues {
  issues: readonly { path?: readonly PropertyKey[]; message: string }[];
}


/** A schema's `safeParse`, as zod's classic and mini schemas have it. */
export interface SafeParser<Output> {
  safeParse(input: unknown): { success: true; data: Output } | { success: false; error: ValidationIssues };
}

export type ParsedForm<Output, Field extends string> =
  | { ok: true; data: Output }
  | {
      ok: false;
      errors: FieldErrors<Field>;
      /** A message about the form as a whole (an issue with no field of its own). */
      formError?: string;
      /** What was submitted, as typed, to fill the form in again. */
      values: Record<Field, string>;
    };

/**
 * The first message for each of `fields` (an issue's first path key names its field); issues of
 * no listed field come back as `formError`.
 */
export function fieldErrors<Field extends string>(error: ValidationIssues, fields: readonly Field[]): { errors: FieldErrors<Field>; formError?: string } {
  const errors: FieldErrors<Field> = {};
  let formError: string | undefined;
  for (const issue of error.issues) {
    const field = issue.path?.[0];
    if (typeof field === "string" && (fields as readonly string[]).includes(field)) errors[field as Field] ??= issue.message;
    else formError ??= issue.message;
  }
  return formError === undefined ? { errors } : { errors, formError };
}

/** Each field's submitted text ("" when absent; the first of repeated values): what the form shows again. */
export function formValues<Field extends string>(body: unknown, fields: readonly Field[]): Record<Field, string> {
  const record = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const values = {} as Record<Field, string>;
  for (const field of fields) {
    const value = record[field];
    const first = Array.isArray(value) ? value[0] : value;
    values[field] = typeof first === "string" ? first : "";
  }
  return values;
}

/**
 * Validates a submitted form (an action's `body`) with a zod schema: its data, or the first
 * error of each field with the values as typed, ready for an `actionData(…, { status: 422 })`.
 */
export function parseForm<Output, Field extends string>(schema: SafeParser<Output>, body: unknown, fields: readonly Field[]): ParsedForm<Output, Field> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, ...fieldErrors(result.error, fields), values: formValues(body, fields) };
}
