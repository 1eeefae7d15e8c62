import { describe, expect, it } from "vitest";
import { clientSubmission, formSubmission, opensElsewhere } from "../../../src/shared/navigation/form-submission";

const form = { action: "https://site.test/orders/7", enctype: "application/x-www-form-urlencoded" };

/** A submit button as the DOM gives it: attributes, and the properties resolved from them. */
function button(attributes: Record<string, string>, resolved: { formAction?: string; formEnctype?: string } = {}) {
  return {
    getAttribute: (name: string) => attributes[name] ?? null,
    formAction: resolved.formAction ?? "https://site.test/page-url",
    formEnctype: resolved.formEnctype ?? "application/x-www-form-urlencoded",
  };
}

describe("formSubmission", () => {
  it("is the form's own action, method and enctype without a submitter or its attributes", () => {
    expect(formSubmission(form, null, "post")).toEqual({ ...form, method: "post" });
    expect(formSubmission(form, undefined, "get")).toEqual({ ...form, method: "get" });
    // A button without formaction still reports the page's URL as formAction: it must not win.
    expect(formSubmission(form, button({}), "post")).toEqual({ ...form, method: "post" });
  });

  it("takes the submitter's formaction, formmethod and formenctype over the form's", () => {
    const remove = button(
      { formaction: "/orders/7/delete", formmethod: "POST", formenctype: "multipart/form-data" },
      { formAction: "https://site.test/orders/7/delete", formEnctype: "multipart/form-data" },
    );
    expect(formSubmission(form, remove, "get")).toEqual({ action: "https://site.test/orders/7/delete", method: "post", enctype: "multipart/form-data" });
    expect(formSubmission(form, button({ formmethod: " get " }), "post").method).toBe("get");
    expect(formSubmission(form, button({ formmethod: "dialog" }), "post").method).toBe("dialog");
  });

  it("an empty formaction is the page itself; an unknown formmethod is the form's", () => {
    expect(formSubmission(form, button({ formaction: "" }), "post").action).toBe("https://site.test/page-url");
    expect(formSubmission(form, button({ formmethod: "delete" }), "post").method).toBe("post");
    expect(formSubmission(form, button({ formmethod: "" }), "get").method).toBe("get");
  });
});

describe("opensElsewhere", () => {
  const withTarget = (target?: string) => ({ getAttribute: (name: string) => (name === "target" ? (target ?? null) : null) });
  it("is the browser's for another browsing context: the submitter's formtarget over the form's target", () => {
    expect(opensElsewhere(withTarget(), null)).toBe(false);
    expect(opensElsewhere(withTarget(""), null)).toBe(false);
    expect(opensElsewhere(withTarget(" _SELF "), null)).toBe(false);
    expect(opensElsewhere(withTarget("_blank"), null)).toBe(true);
    expect(opensElsewhere(withTarget("preview-frame"), undefined)).toBe(true);
    expect(opensElsewhere(withTarget(), button({ formtarget: "_blank" }))).toBe(true);
    expect(opensElsewhere(withTarget("_blank"), button({ formtarget: "_self" }))).toBe(false);
    expect(opensElsewhere(withTarget("_blank"), button({}))).toBe(true);
  });
});

describe("clientSubmission", () => {
  const own = { ...form, getAttribute: (name: string) => (name === "target" ? "" : null) };
  it("is the router's submission, or nothing for the browser's own: a dialog to close, another context to open", () => {
    expect(clientSubmission(own, button({ formmethod: "get" }), "post")).toEqual({ ...form, method: "get" });
    expect(clientSubmission(own, button({ formmethod: "dialog" }), "post")).toBeUndefined();
    expect(clientSubmission(own, button({ formtarget: "_blank" }), "post")).toBeUndefined();
  });
});
