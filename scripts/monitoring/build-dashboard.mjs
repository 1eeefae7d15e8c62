// Writes Outpost's Grafana dashboard (deploy/kubernetes/components/monitoring/outpost-dashboard.json)
// from the rows and panels below; the JSON is what Grafana's sidecar loads from the ConfigMap.
// usage: node scripts/monitoring/build-dashboard.mjs [--check]   (--check: exit 1 when out of date)
import { writeGenerated } from "./generated-file.mjs";

// Every query is scoped by the dashboard's variables.
const sel = (matchers = "") => `{job=~"$job",instance=~"$instance"${matchers ? `,${matchers}` : ""}}`;
const rate = (metric, matchers) => `rate(${metric}${sel(matchers)}[$__rate_interval])`;
const PAGES = 'route!~"static|public|/healthz|/readyz|/monitoring"';
const quantile = (q, metric, by, matchers) => `histogram_quantile(${q}, sum by (${by}) (${rate(metric, matchers)}))`;

/** [title, unit, [expr, legend][], description] per panel, by row. */
const rows = [
  ["Traffic", [
    ["Requests by route", "reqps", [[`sum by (route) (${rate("outpost_http_request_duration_seconds_count")})`, "{{route}}"]]],
    ["Requests by status", "reqps", [[`sum by (status) (${rate("outpost_http_request_duration_seconds_count")})`, "{{status}}"]]],
    ["Clients that left mid-response, by route", "reqps", [[`sum by (route) (${rate("outpost_http_client_left_total")})`, "{{route}}"]]],
  ]],
  ["Errors", [
    ["5xx share of document and data requests (objective: under 0.1 %)", "percentunit", [['outpost:page_errors:ratio_rate5m{job=~"$job"}', "{{job}}"]], 0.001],
    ["5xx by route", "reqps", [[`sum by (route, status) (${rate("outpost_http_request_duration_seconds_count", 'status=~"5.."')})`, "{{route}} {{status}}"]]],
    ["4xx by route", "reqps", [[`sum by (route, status) (${rate("outpost_http_request_duration_seconds_count", 'status=~"4.."')})`, "{{route}} {{status}}"]]],
    ["Cross-site refusals by check", "reqps", [[`sum by (check) (${rate("outpost_csrf_rejected_total")})`, "{{check}}"]]],
  ]],
  ["Latency by route", [
    ["p99 of document and data requests (alert: over 1 s for 10 min)", "s", [[quantile(0.99, "outpost_http_request_duration_seconds_bucket", "route, le", `method="GET",${PAGES}`), "{{route}}"]], 1],
    ["p50 of document and data requests", "s", [[quantile(0.5, "outpost_http_request_duration_seconds_bucket", "route, le", `method="GET",${PAGES}`), "{{route}}"]]],
    ["p99 of static and public files", "s", [[quantile(0.99, "outpost_http_request_duration_seconds_bucket", "route, le", 'route=~"static|public"'), "{{route}}"]]],
  ]],
  ["Render", [
    ["Server render p99 by route", "s", [[quantile(0.99, "outpost_ssr_render_duration_seconds_bucket", "route, le"), "{{route}}"]]],
    ["Server render p50 by route", "s", [[quantile(0.5, "outpost_ssr_render_duration_seconds_bucket", "route, le"), "{{route}}"]]],
    ["Renders by route", "ops", [[`sum by (route) (${rate("outpost_ssr_render_duration_seconds_count")})`, "{{route}}"]]],
  ]],
  ["Sentry tunnel", [
    ["Envelopes accepted and refused by reason", "ops", [
      [`sum(${rate("outpost_tunnel_forwarded_total")})`, "forwarded"],
      [`sum(${rate("outpost_tunnel_spool_spooled_total")})`, "spooled"],
      [`sum by (reason) (${rate("outpost_tunnel_rejected_total")})`, "refused: {{reason}}"],
    ]],
    ["Ingest answers by status", "ops", [[`sum by (status) (${rate("outpost_tunnel_upstream_responses_total")})`, "{{status}}"]]],
    ["Ingest latency", "s", [
      [quantile(0.99, "outpost_tunnel_upstream_duration_seconds_bucket", "le"), "p99"],
      [quantile(0.5, "outpost_tunnel_upstream_duration_seconds_bucket", "le"), "p50"],
    ]],
    ["Bytes forwarded", "Bps", [[`sum(${rate("outpost_tunnel_bytes_total")})`, "bytes"]]],
    ["Items dropped and reported to Sentry, by reason and category", "short", [[`sum by (reason, category) (increase(outpost_tunnel_discarded_total${sel()}[$__rate_interval]))`, "{{reason}} {{category}}"]]],
    ["Refused over the project quota", "ops", [[`sum(${rate("outpost_tunnel_rejected_total", 'reason="quota"')})`, "quota"]]],
    ["Values scrubbed before leaving, by rule (SENTRY_TUNNEL_SCRUB)", "short", [[`sum by (rule) (increase(outpost_tunnel_scrubbed_total${sel()}[$__rate_interval]))`, "{{rule}}"]]],
  ]],
  ["Spool and circuit by upstream", [
    ["Spooled envelopes by upstream", "short", [[`sum by (upstream) (outpost_tunnel_spool_envelopes${sel()})`, "{{upstream}}"]]],
    ["Spool bytes by upstream, and the cap", "bytes", [
      [`sum by (upstream) (outpost_tunnel_spool_bytes${sel()})`, "{{upstream}}"],
      [`max(outpost_tunnel_spool_max_bytes${sel()})`, "cap (per pod)"],
    ]],
    ["Oldest spooled envelope by upstream (alerts: 10 min, 1 h)", "s", [[`max by (upstream) (outpost_tunnel_spool_oldest_age_seconds${sel()})`, "{{upstream}}"]], 600],
    ["Replays by answer", "ops", [[`sum by (status) (${rate("outpost_tunnel_spool_replayed_total")})`, "{{status}}"]]],
    ["Spool drops by upstream and reason", "short", [[`sum by (upstream, reason) (increase(outpost_tunnel_spool_dropped_total${sel()}[$__rate_interval]))`, "{{upstream}} {{reason}}"]]],
    ["Circuit: pods in each state, by upstream", "short", [[`sum by (upstream, state) (outpost_tunnel_circuit_state${sel()})`, "{{upstream}} {{state}}"]]],
  ]],
  ["Process", [
    ["CPU", "percentunit", [[`sum by (instance) (${rate("process_cpu_seconds_total")})`, "{{instance}}"]]],
    ["Memory and its limit", "bytes", [
      [`process_resident_memory_bytes${sel()}`, "{{instance}} resident"],
      [`outpost_process_memory_limit_bytes${sel()}`, "{{instance}} limit"],
    ]],
    ["Heap", "bytes", [
      [`nodejs_heap_size_used_bytes${sel()}`, "{{instance}} used"],
      [`nodejs_heap_size_total_bytes${sel()}`, "{{instance}} total"],
    ]],
    ["Event-loop lag (alert: p99 over 200 ms)", "s", [
      [`nodejs_eventloop_lag_p99_seconds${sel()}`, "{{instance}} p99"],
      [`nodejs_eventloop_lag_p50_seconds${sel()}`, "{{instance}} p50"],
    ], 0.2],
    ["Time in GC by kind", "percentunit", [[`sum by (instance, kind) (${rate("nodejs_gc_duration_seconds_sum")})`, "{{instance}} {{kind}}"]]],
    ["Open file descriptors", "short", [
      [`process_open_fds${sel()}`, "{{instance}} open"],
      [`process_max_fds${sel()}`, "{{instance}} max"],
    ]],
    ["Uptime", "s", [[`time() - process_start_time_seconds${sel()}`, "{{instance}}"]]],
    ["Redis reachable (only with REDIS_URL)", "short", [[`min by (instance) (outpost_redis_up${sel()})`, "{{instance}}"]]],
    ["Pods by build (two during a rolling update)", "short", [[`count by (build_id) (outpost_build_info${sel()})`, "{{build_id}}"]]],
    ["Asset requests by source: own build, another build's through Redis, missing", "ops", [[`sum by (result) (${rate("outpost_shared_assets_total")})`, "{{result}}"]]],
  ]],
  ["Live updates (event streams)", [
    ["Open event streams by pod (EVENT_STREAM_MAX each)", "short", [[`sum by (instance) (outpost_event_streams${sel()})`, "{{instance}}"]]],
    ["Events published, and those Redis did not take", "ops", [
      [`sum(${rate("outpost_events_published_total")})`, "published"],
      [`sum(${rate("outpost_events_publish_failures_total")})`, "not taken by Redis (this pod's streams only)"],
    ]],
    ["Streams closed by reason (client, shutdown, slow, limit)", "ops", [[`sum by (reason) (${rate("outpost_event_stream_closed_total")})`, "{{reason}}"]]],
  ]],
];

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, substituted by Grafana.
const datasource = { type: "prometheus", uid: "${datasource}" };
const variable = (name, query) => ({
  name,
  label: name,
  type: "query",
  datasource,
  query: { query, refId: name },
  definition: query,
  includeAll: true,
  multi: true,
  allValue: ".*",
  current: { selected: true, text: ["All"], value: ["$__all"] },
  refresh: 2,
  sort: 1,
});

const panels = [];
let y = 0;
let id = 1;
for (const [title, list] of rows) {
  panels.push({ id: id++, type: "row", title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
  list.forEach(([panelTitle, unit, targets, threshold], i) => {
    const steps = [{ color: "green", value: null }, ...(threshold === undefined ? [] : [{ color: "red", value: threshold }])];
    panels.push({
      id: id++,
      type: "timeseries",
      title: panelTitle,
      datasource,
      gridPos: { h: 8, w: 8, x: (i % 3) * 8, y: y + Math.floor(i / 3) * 8 },
      fieldConfig: {
        defaults: {
          unit,
          thresholds: { mode: "absolute", steps },
          custom: { thresholdsStyle: { mode: threshold === undefined ? "off" : "line" } },
        },
        overrides: [],
      },
      options: { legend: { displayMode: "list", placement: "bottom", showLegend: true }, tooltip: { mode: "multi", sort: "desc" } },
      targets: targets.map(([expr, legendFormat], t) => ({ refId: String.fromCharCode(65 + t), datasource, expr, legendFormat, range: true })),
    });
  });
  y += Math.ceil(list.length / 3) * 8;
}

const dashboard = {
  uid: "outpost",
  title: "Outpost",
  description: "Outpost's traffic, errors, latency, render time, Sentry tunnel, spool, circuit and process (docs/guides/operators.md, Dashboards and alerts)",
  tags: ["outpost"],
  schemaVersion: 39,
  version: 1,
  editable: true,
  graphTooltip: 1,
  time: { from: "now-6h", to: "now" },
  refresh: "30s",
  timezone: "",
  templating: {
    list: [
      { name: "datasource", label: "Data source", type: "datasource", query: "prometheus", current: {}, hide: 0, refresh: 1 },
      variable("job", "label_values(outpost_http_request_duration_seconds_count, job)"),
      variable("instance", 'label_values(outpost_http_request_duration_seconds_count{job=~"$job"}, instance)'),
    ],
  },
  annotations: { list: [] },
  panels,
};

writeGenerated("deploy/kubernetes/components/monitoring/outpost-dashboard.json", `${JSON.stringify(dashboard, null, 2)}\n`, {
  script: "scripts/monitoring/build-dashboard.mjs",
  source: "scripts/monitoring/build-dashboard.mjs",
});
