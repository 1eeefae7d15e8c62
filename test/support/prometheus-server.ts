import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { freePort } from "./dev-session";

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus";

/** Whether a real Prometheus can be started; tests that need one skip with a message otherwise. */
export const prometheusAvailable = existsSync(PROMETHEUS);
if (!prometheusAvailable) console.warn(`Prometheus tests skipped: no prometheus at ${PROMETHEUS} (apt-get install -y prometheus, or set PROMETHEUS_PATH)`);

export interface TestPrometheus {
  url: string;
  /** The `data` of an instant query's answer; throws on an error answer. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  alerts(): Promise<{ labels: Record<string, string>; state: string }[]>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus on a loopback port with a data directory of its own, scraping `target`
 * (host:port of a /metrics listener) every second and evaluating `rules` (rule groups) every second.
 */
export async function startPrometheus(target: string, rules: { groups: unknown[] }): Promise<TestPrometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), "outpost-prometheus-"));
  const port = await freePort();
  writeFileSync(path.join(dir, "rules.yaml"), stringify(rules));
  writeFileSync(
    path.join(dir, "prometheus.yaml"),
    stringify({
      global: { scrape_interval: "1s", evaluation_interval: "1s" },
      rule_files: [path.join(dir, "rules.yaml")],
      scrape_configs: [{ job_name: "outpost", static_configs: [{ targets: [target] }] }],
    }),
  );
  const args = [`--config.file=${path.join(dir, "prometheus.yaml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`];
  const child: ChildProcess = spawn(PROMETHEUS, args, { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const api = async (pathAndQuery: string) => {
    const body = (await (await fetch(`${url}${pathAndQuery}`)).json()) as { status: string; error?: string; data: unknown };
    if (body.status !== "success") throw new Error(`Prometheus ${pathAndQuery}: ${body.error}`);
    return body.data;
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then((response) => response.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    query: async (promql) => ((await api(`/api/v1/query?query=${encodeURIComponent(promql)}`)) as { result: [] }).result,
    alerts: async () => ((await api("/api/v1/alerts")) as { alerts: [] }).alerts,
    stop,
  };
}
