// Offline check of deploy/kubernetes: every document against the Kubernetes JSON
// schemas bundled in kubernetes-models (no cluster, no network), then the
// operational rules the schemas cannot express.
// usage: node deploy/validate.mjs [dir]   (default: deploy/kubernetes)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { prometheusRuleProblems } from "./prometheus-rule.mjs";

const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "kubernetes");
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

/** One folder's manifests: its objects, and its Kustomization or Component with the files it names. */
function readFolder(folder) {
  const files = readdirSync(folder).filter((f) => /\.ya?ml$/.test(f)).sort();
  const objects = [];
  let kustomization;
  for (const file of files) {
    const where = path.relative(dir, path.join(folder, file));
    for (const doc of parseAllDocuments(readFileSync(path.join(folder, file), "utf8"))) {
      if (doc.errors.length) {
        problem(where, doc.errors.map((e) => e.message).join("; "));
        continue;
      }
      const obj = doc.toJS();
      if (obj == null) continue;
      if (obj.kind === "Kustomization" || obj.kind === "Component") kustomization = { file, obj };
      else objects.push({ file: where, obj });
    }
  }
  return { folder, files, objects, kustomization };
}

const base = readFolder(dir);
const { files, objects, kustomization } = base;
// Optional parts an overlay adds (components/<name>/): each checked on its own, against the base.
const componentsDir = path.join(dir, "components");
const components = existsSync(componentsDir)
  ? readdirSync(componentsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => readFolder(path.join(componentsDir, e.name)))
  : [];

// Schema validation: apiVersion "apps/v1" -> kubernetes-models/apps/v1, "v1" -> kubernetes-models/v1.
for (const { file, obj } of [base, ...components].flatMap((part) => part.objects)) {
  const where = `${file} ${obj.kind ?? "?"}/${obj.metadata?.name ?? "?"}`;
  if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") {
    problem(where, "apiVersion and kind are required");
    continue;
  }
  if (obj.apiVersion === "monitoring.coreos.com/v1" && obj.kind === "PrometheusRule") {
    for (const message of prometheusRuleProblems(obj)) problem(where, message);
    continue;
  }
  let Model;
  try {
    Model = (await import(`kubernetes-models/${obj.apiVersion}`))[obj.kind];
  } catch {}
  if (typeof Model !== "function") {
    problem(where, `no schema for ${obj.apiVersion} ${obj.kind}`);
    continue;
  }
  try {
    new Model(obj).validate();
  } catch (error) {
    problem(where, error.message.split("\n").slice(0, 8).join("\n  "));
  }
}

/** What every container of ours runs with: probes, resources, no root, nothing writable but its volumes. */
function checkHardened(d, pod, c) {
  if (!c.readinessProbe || !c.livenessProbe) problem(d, "needs a readinessProbe and a livenessProbe");
  for (const k of ["requests", "limits"]) {
    if (!c.resources?.[k]?.cpu || !c.resources?.[k]?.memory) problem(d, `resources.${k} needs cpu and memory`);
  }
  const sc = c.securityContext ?? {};
  const psc = pod.spec.securityContext ?? {};
  if (!(sc.runAsNonRoot ?? psc.runAsNonRoot)) problem(d, "runAsNonRoot is not set");
  if (sc.readOnlyRootFilesystem !== true) problem(d, "readOnlyRootFilesystem is not true");
  if (sc.allowPrivilegeEscalation !== false) problem(d, "allowPrivilegeEscalation is not false");
  if (!sc.capabilities?.drop?.includes("ALL")) problem(d, "capabilities do not drop ALL");
  if (pod.spec.automountServiceAccountToken !== false) problem(d, "mounts a service-account token it does not need");
}

const find = (kind) => objects.filter((o) => o.obj.kind === kind).map((o) => o.obj);
const one = (kind) => {
  const found = find(kind);
  if (found.length !== 1) problem(kind, `expected exactly one, found ${found.length}`);
  return found[0];
};
const matches = (selector = {}, labels = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

// A StatefulSet: each pod keeps its tunnel spool on a volume of its own.
const deploy = one("StatefulSet");
const pod = deploy?.spec?.template;
const c = pod?.spec?.containers?.[0];
if (deploy && c) {
  const d = `StatefulSet/${deploy.metadata.name}`;
  const labels = pod.metadata?.labels;
  if (!matches(deploy.spec.selector?.matchLabels, labels)) problem(d, "selector does not match the pod labels");
  if (deploy.spec.replicas !== undefined) problem(d, "sets replicas, which fights the HorizontalPodAutoscaler");
  if (c.readinessProbe?.httpGet?.path !== "/readyz") problem(d, "readinessProbe must GET /readyz");
  if (c.livenessProbe?.httpGet?.path !== "/healthz") problem(d, "livenessProbe must GET /healthz");
  checkHardened(d, pod, c);
  if (!c.volumeMounts?.some((m) => m.mountPath === "/tmp")) problem(d, "no writable /tmp under a read-only root");
  const spoolMount = c.volumeMounts?.find((m) => m.mountPath === "/var/lib/outpost/spool");
  if (!spoolMount) problem(d, "no volume on the tunnel spool /var/lib/outpost/spool");
  else if (!(deploy.spec.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === spoolMount.name)) {
    problem(d, "the spool is not on a volumeClaimTemplate, so it would not outlive the pod");
  }
  if (!find("Service").some((s) => s.metadata.name === deploy.spec.serviceName && s.spec?.clusterIP === "None")) {
    problem(d, `serviceName ${deploy.spec.serviceName} is not a headless Service`);
  }

  // The grace period must cover the preStop sleep, the server's drain deadline (in-flight requests,
  // then the spool's delivery), and the bounded steps after it: the replay's stop and the error flush (2 s each).
  const config = Object.assign({}, ...find("ConfigMap").map((m) => m.data ?? {}));
  const drainSeconds = Number(config.SHUTDOWN_TIMEOUT_MS ?? 10_000) / 1000;
  const cmd = c.lifecycle?.preStop?.exec?.command ?? [];
  const preStop = cmd[0] === "sleep" ? Number(cmd[1]) : (c.lifecycle?.preStop?.sleep?.seconds ?? 0);
  if (!preStop) problem(d, "no preStop sleep to let endpoints drop the pod before the drain");
  const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
  if (grace <= preStop + drainSeconds + 4) {
    problem(d, `terminationGracePeriodSeconds ${grace} <= preStop ${preStop}s + drain ${drainSeconds}s + 4s of replay stop and error flush`);
  }

  // Every envFrom source exists, and the DSN is only ever in a Secret.
  for (const ref of c.envFrom ?? []) {
    const [kind, name] = ref.configMapRef ? ["ConfigMap", ref.configMapRef.name] : ["Secret", ref.secretRef?.name];
    if (!find(kind).some((o) => o.metadata.name === name)) problem(d, `envFrom ${kind} ${name} is not defined`);
  }
  if ("SENTRY_DSN" in config) problem("ConfigMap", "SENTRY_DSN belongs in the Secret");
  const secret = Object.assign({}, ...find("Secret").map((s) => ({ ...s.data, ...s.stringData })));
  if (!("SENTRY_DSN" in secret)) problem("Secret", "does not define SENTRY_DSN");

  const svc = find("Service").find((s) => s.spec?.clusterIP !== "None");
  if (svc && !matches(svc.spec?.selector, labels)) problem("Service", "selector does not match the pod labels");
  const ports = new Set((c.ports ?? []).map((p) => p.name));
  for (const p of svc?.spec?.ports ?? []) {
    if (typeof p.targetPort === "string" && !ports.has(p.targetPort)) problem("Service", `targetPort ${p.targetPort} is not a container port`);
  }
  const pdb = one("PodDisruptionBudget");
  if (pdb && !matches(pdb.spec?.selector?.matchLabels, labels)) problem("PodDisruptionBudget", "selector does not match the pod labels");
  const hpa = one("HorizontalPodAutoscaler");
  const ref = hpa?.spec?.scaleTargetRef;
  if (hpa && (ref?.kind !== "StatefulSet" || ref?.name !== deploy.metadata.name)) problem("HorizontalPodAutoscaler", "does not target the StatefulSet");
  if (hpa && pdb?.spec?.minAvailable !== undefined && pdb.spec.minAvailable >= hpa.spec.minReplicas) {
    problem("PodDisruptionBudget", "minAvailable >= the HPA's minReplicas blocks every drain");
  }
}

// Each kustomization names every file of its folder, as a resource or a patch, and only files that exist.
for (const { folder, files: present, kustomization: k } of [base, ...components]) {
  const where = path.relative(dir, path.join(folder, k?.file ?? "kustomization.yaml"));
  if (!k) {
    if (folder !== dir) problem(where, "is missing");
    continue;
  }
  const listed = new Set([...(k.obj.resources ?? []), ...(k.obj.patches ?? []).map((patch) => patch.path).filter(Boolean)]);
  for (const f of present) if (f !== k.file && !listed.has(f)) problem(where, `does not list ${f}`);
  for (const f of listed) if (/\.ya?ml$/.test(f) && !present.includes(f)) problem(where, `lists missing ${f}`);
  // A generated ConfigMap's files exist; a Grafana dashboard's JSON parses and carries the sidecar's label.
  for (const generator of k.obj.configMapGenerator ?? []) {
    for (const f of (generator.files ?? []).map((entry) => entry.split("=").pop())) {
      const file = path.join(folder, f);
      if (!existsSync(file)) problem(where, `configMapGenerator reads missing ${f}`);
      if (!existsSync(file) || !f.endsWith(".json")) continue;
      try {
        const dashboard = JSON.parse(readFileSync(file, "utf8"));
        if (Array.isArray(dashboard.panels) && generator.options?.labels?.grafana_dashboard !== "1") {
          problem(where, `${generator.name} holds a Grafana dashboard but lacks the sidecar's label grafana_dashboard: "1"`);
        }
      } catch (error) {
        problem(where, `${f} is not JSON: ${error.message}`);
      }
    }
  }
}

// A component's pods are hardened like Outpost's, read only Secrets that exist, and admit only the manifests' own pods.
const secretValues = (s) => ({
  ...Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(String(v), "base64").toString()])),
  ...s.stringData,
});
const podsOf = (objs) => objs.filter((o) => o.spec?.template?.spec?.containers).map((o) => o.spec.template);
for (const part of components) {
  const name = path.relative(dir, part.folder);
  const own = part.objects.map((o) => o.obj);
  const all = [...objects.map((o) => o.obj), ...own];
  for (const w of own.filter((o) => o.spec?.template?.spec?.containers)) {
    const d = `${name} ${w.kind}/${w.metadata.name}`;
    const podLabels = w.spec.template.metadata?.labels;
    if (!matches(w.spec.selector?.matchLabels, podLabels)) problem(d, "selector does not match the pod labels");
    if (matches(deploy?.spec?.selector?.matchLabels, podLabels)) problem(d, "its pods carry Outpost's labels, so Outpost's Service and budget would take them");
    for (const wc of w.spec.template.spec.containers) {
      checkHardened(d, w.spec.template, wc);
      for (const { name: env, valueFrom } of wc.env ?? []) {
        const ref = valueFrom?.secretKeyRef;
        const secret = ref && all.find((o) => o.kind === "Secret" && o.metadata.name === ref.name);
        if (ref && !(secret && ref.key in secretValues(secret))) problem(d, `env ${env} reads ${ref.name}/${ref.key}, which is not defined`);
      }
    }
  }
  for (const policy of own.filter((o) => o.kind === "NetworkPolicy")) {
    const d = `${name} NetworkPolicy/${policy.metadata.name}`;
    if (!podsOf(own).some((p) => matches(policy.spec?.podSelector?.matchLabels, p.metadata?.labels))) problem(d, "selects none of the component's pods");
    for (const rule of policy.spec?.ingress ?? []) {
      const peers = rule.from ?? [];
      const ours = peers.every((peer) => peer.podSelector && !peer.namespaceSelector && !peer.ipBlock && podsOf(all).some((p) => matches(peer.podSelector.matchLabels, p.metadata?.labels)));
      if (peers.length === 0 || !ours) problem(d, "admits pods other than the manifests' own");
    }
  }
  // A redis:// URL reaches one of the component's Services, with the password its server is given.
  const secrets = Object.assign({}, ...own.filter((o) => o.kind === "Secret").map(secretValues));
  for (const [key, value] of Object.entries(secrets)) {
    const url = /^rediss?:\/\//.test(value) ? URL.parse(value) : null;
    if (!url) continue;
    const service = own.find((o) => o.kind === "Service" && o.metadata.name === url.hostname.split(".")[0]);
    if (!service?.spec?.ports?.some((p) => p.port === Number(url.port || 6379))) problem(`${name} Secret`, `${key} reaches no Service port of the component`);
    if (decodeURIComponent(url.password) !== (secrets.REDIS_PASSWORD ?? "")) problem(`${name} Secret`, `${key} has another password than REDIS_PASSWORD`);
  }
}

if (problems.length) {
  console.error(`deploy/validate: ${problems.length} problem(s) in ${dir}\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
const count = [base, ...components].reduce((sum, part) => sum + part.objects.length, 0);
console.log(`deploy/validate: ${count} objects in ${files.length} files and ${components.length} component(s) are valid (${dir})`);
