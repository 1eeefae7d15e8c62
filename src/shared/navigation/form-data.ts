export type SubmitTarget = FormData | URLSearchParams | Record<string, string>;

/** What a submission sends, as the FormData that pending state shows (a copy unless it is one already). */
export function toFormData(target: SubmitTarget): FormData {
  if (target instanceof FormData) return target;
  const data = new FormData();
  const entries = target instanceof URLSearchParams ? target.entries() : Object.entries(target);
  for (const [name, value] of entries) data.append(name, value);
  return data;
}
