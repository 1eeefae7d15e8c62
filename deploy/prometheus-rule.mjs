// kubernetes-models has no schema for the Prometheus Operator's PrometheusRule, so
// deploy/validate.mjs checks its shape here: what the operator's CRD requires, and the
// annotations every Outpost alert carries. promtool checks the expressions themselves.

const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;
const isStringMap = (value) => value === undefined || (typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string"));

/** Problems with one PrometheusRule object, as messages; empty when it is well formed. */
export function prometheusRuleProblems(rule) {
  const problems = [];
  if (typeof rule.metadata?.name !== "string") problems.push("metadata.name is required");
  const groups = rule.spec?.groups;
  if (!Array.isArray(groups) || groups.length === 0) return [...problems, "spec.groups must be a non-empty list"];
  const names = new Set();
  for (const [g, group] of groups.entries()) {
    const where = `spec.groups[${g}]`;
    if (typeof group?.name !== "string" || !group.name) problems.push(`${where}.name is required`);
    else if (names.has(group.name)) problems.push(`${where}.name ${group.name} is used twice`);
    names.add(group?.name);
    if (!Array.isArray(group?.rules) || group.rules.length === 0) {
      problems.push(`${where}.rules must be a non-empty list`);
      continue;
    }
    for (const [r, item] of group.rules.entries()) {
      const at = `${where}.rules[${r}] ${item?.alert ?? item?.record ?? ""}`.trim();
      if ((typeof item?.alert === "string") === (typeof item?.record === "string")) problems.push(`${at}: needs exactly one of alert and record`);
      if (typeof item?.expr !== "string" || !item.expr.trim()) problems.push(`${at}: expr is required`);
      if (item?.for !== undefined && !DURATION.test(String(item.for))) problems.push(`${at}: for ${item.for} is not a duration`);
      if (!isStringMap(item?.labels) || !isStringMap(item?.annotations)) problems.push(`${at}: labels and annotations must map names to strings`);
      if (typeof item?.alert !== "string") continue;
      for (const key of ["summary", "description", "runbook_url"]) {
        if (!item.annotations?.[key]) problems.push(`${at}: annotation ${key} is missing`);
      }
      if (!item.labels?.severity) problems.push(`${at}: label severity is missing`);
    }
  }
  return problems;
}
