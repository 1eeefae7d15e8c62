import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { ROOT } from "./paths";

/** A PromQL expression of the rules or the dashboard, and the label names its output is templated with. */
export interface Query {
  where: string;
  expr: string;
  /** Labels read by `{{ $labels.x }}` in annotations or `{{x}}` in a legend. */
  templated: string[];
}

interface RuleFile {
  groups: { name: string; rules: { record?: string; alert?: string; expr: string; annotations?: Record<string, string> }[] }[];
}
interface Dashboard {
  panels: { title: string; type: string; targets?: { expr: string; legendFormat?: string }[] }[];
}

export const RULES_FILE = path.join(ROOT, "deploy/monitoring/outpost-rules.yaml");
export const DASHBOARD_FILE = path.join(ROOT, "deploy/kubernetes/components/monitoring/outpost-dashboard.json");

export const readRules = () => parse(readFileSync(RULES_FILE, "utf8")) as RuleFile;
export const readDashboard = () => JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")) as Dashboard;

export function ruleQueries(): Query[] {
  return readRules().groups.flatMap((group) =>
    group.rules.map((rule) => ({
      where: `rule ${rule.alert ?? rule.record}`,
      expr: rule.expr,
      templated: [...Object.values(rule.annotations ?? {}).join(" ").matchAll(/\$labels\.(\w+)/g)].map((m) => m[1] as string),
    })),
  );
}

export function dashboardQueries(): Query[] {
  return readDashboard().panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      where: `panel "${panel.title}"`,
      expr: target.expr,
      templated: [...(target.legendFormat ?? "").matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] as string),
    })),
  );
}

/** The dashboard's variables as values Prometheus takes, for checking its queries outside Grafana. */
export const withoutVariables = (expr: string) => expr.replaceAll("$__rate_interval", "1m").replaceAll("$job", ".*").replaceAll("$instance", ".*");

/**
 * The metric names and label names a query reads. Not a PromQL parser: it relies on this repo's
 * metric prefixes (outpost, process, nodejs) and reads label names from matchers and groupings.
 */
export function namesIn(expr: string): { metrics: string[]; labels: Map<string, string[]>; grouping: string[] } {
  const text = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const metrics = [...new Set([...text.matchAll(/\b(?:outpost|process|nodejs)[\w:]*/g)].map((m) => m[0]))];
  const labels = new Map<string, string[]>();
  for (const [, metric, matchers] of text.matchAll(/\b((?:outpost|process|nodejs)[\w:]*)\{([^}]*)\}/g)) {
    const names = [...(matchers as string).matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1] as string);
    labels.set(metric as string, [...(labels.get(metric as string) ?? []), ...names]);
  }
  const grouping = [...text.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)].flatMap((m) =>
    (m[1] as string).split(",").map((name) => name.trim()).filter(Boolean),
  );
  return { metrics, labels, grouping };
}

/** Sample names in a /metrics text, each with the label names it carries. */
export function exposition(text: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s/.exec(line);
    if (!match) continue;
    const names = series.get(match[1] as string) ?? new Set<string>();
    for (const [, name] of (match[2] ?? "").matchAll(/(\w+)="/g)) names.add(name as string);
    series.set(match[1] as string, names);
  }
  return series;
}
