import { describe, expect, it } from "vitest";
// @ts-expect-error: a dev script in plain JavaScript, without types
import { compileWithRefresh } from "../../../../scripts/dev/refresh/transform.mjs";

const compile = (source: string) =>
  compileWithRefresh({ id: "src/app/Page.tsx", file: "/project/src/app/Page.tsx", source, runtime: "/project/refresh-runtime.ts" });

describe("compileWithRefresh (the dev client's .tsx files)", () => {
  it("registers components under the module's path, through the vendor's refresh runtime", () => {
    const { result, boundary } = compile(
      'import { useState } from "react";\nexport default function Page() {\n  const [n] = useState(0);\n  return <p>{n}</p>;\n}\n',
    );
    expect(result.loader).toBe("js");
    expect(result.contents).toMatch(/^import \* as __refresh from "\/project\/refresh-runtime\.ts"; const \$RefreshReg\$ = __refresh\.registerIn\("src\/app\/Page\.tsx"\)/);
    expect(result.contents).toContain('$RefreshReg$(_c, "Page")');
    expect(result.contents).toContain("$RefreshSig$()"); // its hooks' signature
    expect(result.contents).toContain("react/jsx-runtime");
    expect(result.contents).toMatch(/\/\/# sourceMappingURL=data:application\/json;base64,/);
    expect(boundary).toBe(true);
  });

  it("calls a module a boundary only when every export is a component it registered", () => {
    expect(compile("export function Card() { return <div />; }\nexport const size = 3;\n").boundary).toBe(false);
    expect(compile("export const format = (n: number) => n.toFixed(2);\n").boundary).toBe(false);
    expect(compile("export type Props = { a: string };\nexport function Card(props: Props) { return <b>{props.a}</b>; }\n").boundary).toBe(true);
  });

  it("leaves a syntax error to esbuild, which reports it in its own words", () => {
    expect(compile("export const broken = ;\n")).toBeNull();
  });
});
