import { describe, expect, it } from "vitest";
import { object as classicObject, string as classicString } from "zod";
import { email, minLength, object, optional, refine, string, trim } from "zod/mini";
import { fieldErrors, formValues, parseForm } from "#src/server/forms/parse-form";

const FIELDS = ["name", "email"] as const;
const schema = object({
  name: string({ error: "Please give a name" }).check(trim(), minLength(1, "Please give a name")),
  email: optional(string().check(email("Not an email address"))),
});

describe("parseForm", () => {
  it("answers the schema's data when the form is valid", () => {
    expect(parseForm(schema, { name: " Ada ", email: "ada@example.com" }, FIELDS)).toEqual({ ok: true, data: { name: "Ada", email: "ada@example.com" } });
  });

  it("turns a zod error into the first message of each field, with the values as typed", () => {
    const parsed = parseForm(schema, { name: "   ", email: "nope", extra: "ignored" }, FIELDS);
    expect(parsed).toEqual({
      ok: false,
      errors: { name: "Please give a name", email: "Not an email address" },
      values: { name: "   ", email: "nope" },
    });
  });

  it("refills absent and non-text fields as empty, a repeated field with its first value", () => {
    const parsed = parseForm(schema, { name: ["Ada", "Bob"], email: 42 }, FIELDS);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.values).toEqual({ name: "Ada", email: "" });
    expect(formValues(undefined, FIELDS)).toEqual({ name: "", email: "" });
  });

  it("keeps an issue of the whole form apart as formError", () => {
    const matching = object({ name: string(), email: string() }).check(refine((value) => value.name !== value.email, "Name and email must differ"));
    const parsed = parseForm(matching, { name: "x", email: "x" }, FIELDS);
    expect(parsed).toMatchObject({ ok: false, errors: {}, formError: "Name and email must differ" });
  });

  it("works with zod's classic schemas too", () => {
    const classic = classicObject({ name: classicString().min(1, "Required") });
    expect(parseForm(classic, { name: "" }, ["name"] as const)).toEqual({ ok: false, errors: { name: "Required" }, values: { name: "" } });
  });
});

describe("fieldErrors", () => {
  it("names a nested issue by its field and keeps the first message per field", () => {
    const error = { issues: [{ path: ["name", 0], message: "first" }, { path: ["name"], message: "second" }, { path: [], message: "whole" }] };
    expect(fieldErrors(error, FIELDS)).toEqual({ errors: { name: "first" }, formError: "whole" });
  });
});
