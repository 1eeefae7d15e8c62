import type { FetchAnswer, FetcherSubmission } from "../../../shared/navigation/fetcher-request";
import type { RouterEnvironment } from "../environment";

/**
 * What only the browser itself can do (another build answered, the network failed, another
 * origin): a plain form submission; for a load, this page loaded again, so that old code never
 * reads new data.
 */
export function leavePage(
  { location, document }: Pick<RouterEnvironment, "location" | "document">,
  href: string,
  submission: FetcherSubmission | undefined,
): FetchAnswer {
  if (!submission) {
    location.reload();
    return { kind: "left" };
  }
  const form = document.createElement("form");
  form.method = "post";
  form.action = href;
  form.hidden = true;
  for (const [name, value] of submission.formData.entries()) {
    if (typeof value !== "string") continue;
    const input = document.createElement("input");
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  return { kind: "left" };
}
