/** Where and how a form is submitted once its submitter is known. */
export interface FormSubmission {
  /** The resolved URL, as a form's `action` property gives it. */
  action: string;
  /** "dialog" closes the form's dialog: the browser's business, not a request. */
  method: "get" | "post" | "dialog";
  enctype: string;
}

interface SubmittedForm {
  action: string;
  enctype: string;
}

/** A submit button or input: its `form*` attributes, and their properties resolved as the browser does. */
interface Submitter {
  getAttribute(name: string): string | null;
  formAction?: string;
  formEnctype?: string;
}

const METHODS = new Set(["get", "post", "dialog"]);

/**
 * What the browser would submit: a submit button's `formaction`, `formmethod` and `formenctype`
 * override the form's own (a "Preview" button that GETs a POST form, a "Delete" one with its own
 * action). Only a present attribute overrides; `formAction` then is already resolved against the
 * document (an empty one is the page itself), as the form's `action` property is.
 */
export function formSubmission(form: SubmittedForm, submitter: Submitter | null | undefined, method: "get" | "post"): FormSubmission {
  const override = (attribute: string, resolved: string | undefined, own: string) =>
    submitter?.getAttribute(attribute) != null && resolved !== undefined ? resolved : own;
  const chosen = submitter?.getAttribute("formmethod")?.trim().toLowerCase();
  return {
    action: override("formaction", submitter?.formAction, form.action),
    method: chosen !== undefined && METHODS.has(chosen) ? (chosen as FormSubmission["method"]) : method,
    enctype: override("formenctype", submitter?.formEnctype, form.enctype),
  };
}

/**
 * Whether the submission opens in another browsing context (`target="_blank"`, a named frame; a
 * submitter's `formtarget` over the form's `target`): the browser's to do, as `<Link>` leaves such
 * a link to it.
 */
export function opensElsewhere(form: { getAttribute(name: string): string | null }, submitter: Submitter | null | undefined): boolean {
  const target = (submitter?.getAttribute("formtarget") ?? form.getAttribute("target") ?? "").trim().toLowerCase();
  return target !== "" && target !== "_self";
}

/**
 * The submission the router sends for the form, or undefined when it is the browser's own: a
 * dialog to close, or another browsing context to open.
 */
export function clientSubmission(
  form: SubmittedForm & { getAttribute(name: string): string | null },
  submitter: Submitter | null | undefined,
  method: "get" | "post",
): (FormSubmission & { method: "get" | "post" }) | undefined {
  const submission = formSubmission(form, submitter, method);
  if (submission.method === "dialog" || opensElsewhere(form, submitter)) return undefined;
  return submission as FormSubmission & { method: "get" | "post" };
}
