import vm from "node:vm";
import fc from "fast-check";
import { expect, it } from "vitest";
import { serializeAsScriptValue, serializeForScript } from "#src/shared/document/serialize";

// What a browser reads back from a string written into a UTF-8 page: lone surrogates become U+FFFD.
const asUtf8Page = (text: string) => Buffer.from(text, "utf8").toString("utf8");
const readBack = (value: unknown): unknown => shownAs(JSON.parse(JSON.stringify(value)));
const shownAs = (value: unknown): unknown =>
  typeof value === "string"
    ? asUtf8Page(value)
    : Array.isArray(value)
      ? value.map(shownAs)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [asUtf8Page(key), shownAs(item)]))
        : value;

// Every UTF-16 code unit, lone surrogates included, plus the characters that matter to a script element.
const text = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.constantFrom("<", ">", "&", "/", "!", "-", "s", "c", "r", "i", "p", "t", "\\", "u", "d", "8", "0", "\u2028", "\u2029", "\ud800", "\udfff", "\ud83d\ude00") }),
);
const json = fc.jsonValue({ maxDepth: 3 }).chain((base) => fc.tuple(fc.constant(base), fc.array(text, { maxLength: 4 }))).map(([base, strings]) => ({ base, strings, [strings[0] ?? "key"]: strings }));

it("reads back as JSON.parse what a UTF-8 page would show, for any value", () => {
  fc.assert(
    fc.property(fc.oneof(text, json), (value) => {
      expect(JSON.parse(serializeForScript(value))).toEqual(readBack(value));
    }),
    { numRuns: 2_000 },
  );
});

it("nothing can end the script or start a comment, and a script engine reads the same value", () => {
  fc.assert(
    fc.property(fc.oneof(text, json), (value) => {
      const serialized = serializeAsScriptValue(value);
      expect(serialized).not.toMatch(/[<>&\u2028\u2029]/);
      // Well-formed: what the UTF-8 document carries byte for byte.
      expect(asUtf8Page(serialized)).toBe(serialized);
      const window: { value?: unknown } = {};
      vm.runInNewContext(`window.value=${serialized}`, { window });
      expect(window.value).toEqual(readBack(value));
    }),
    { numRuns: 500 },
  );
});

it("keeps a __proto__ key an own key when a script evaluates it, never the object's prototype", () => {
  const echoed = JSON.parse('{"note":{"__proto__":{"isAdmin":true}},"list":[{"__proto__":"x"}],"text":"{\\"__proto__\\":1}"}');
  const window: { value?: Record<string, unknown> } = {};
  vm.runInNewContext(`window.value=${serializeAsScriptValue(echoed)}`, { window });
  const value = window.value as { note: Record<string, unknown>; list: object[]; text: string };
  const note = value.note;
  expect(Object.hasOwn(note, "__proto__")).toBe(true);
  expect(note.isAdmin).toBeUndefined();
  expect(Object.hasOwn(value.list[0] as object, "__proto__")).toBe(true);
  expect(value.text).toBe('{"__proto__":1}');
  // Valid JSON stays JSON where nothing evaluates it (JSON-LD).
  expect(JSON.parse(serializeForScript(echoed))).toEqual(echoed);
});

it("a lone surrogate reads back as U+FFFD and a literal backslash-u text is kept", () => {
  expect(JSON.parse(serializeForScript("a\ud800b"))).toBe("a\ufffdb");
  expect(JSON.parse(serializeForScript("\\ud800"))).toBe("\\ud800");
  expect(JSON.parse(serializeForScript("\ud83d\ude00"))).toBe("\ud83d\ude00");
});
