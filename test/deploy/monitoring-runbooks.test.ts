import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../support/paths";
import { readRules } from "../support/monitoring-queries";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\w\- ]/g, "").replaceAll(" ", "-");

it("points every alert's runbook_url at a section of the operators' guide named after it", () => {
  const guide = readFileSync(path.join(ROOT, "docs/guides/operators.md"), "utf8");
  const anchors = new Set([...guide.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
  const alerts = readRules().groups.flatMap((group) => group.rules.filter((rule) => rule.alert));
  expect(alerts.length).toBeGreaterThan(10);
  const wrong = alerts.filter((rule) => {
    const url = rule.annotations?.runbook_url ?? "";
    const anchor = url.split("#")[1] ?? "";
    return !url.includes("/docs/guides/operators.md#") || anchor !== anchorOf(rule.alert as string) || !anchors.has(anchor);
  });
  expect(wrong.map((rule) => rule.alert)).toEqual([]);
});
