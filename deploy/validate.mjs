// Offline check of deploy/kubernetes: every document against the Kubernetes JSON
// schemas bundled in kubernetes-models (no cluster, no network), then the
// operational rules the schemas cannot express.
// usage: node deploy/validate.mjs [dir]   (default: deploy/kubernetes)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "kubernetes");
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
const objects = [];
let kustomization;
for (const file of files) {
  for (const doc of parseAllDocuments(readFileSync(path.join(dir, file), "utf8"))) {
    if (doc.errors.length) {
      problem(file, doc.errors.map((e) => e.message).join("; "));
      continue;
    }
    const obj = doc.toJS();
    if (obj == null) continue;
    if (obj.kind === "Kustomization") kustomization = { file, obj };
    else objects.push({ file, obj });
  }
}

// Schema validation: apiVersion "apps/v1" -> kubernetes-models/apps/v1, "v1" -> kubernetes-models/v1.
for (const { file, obj } of objects) {
  const where = `${file} ${obj.kind ?? "?"}/${obj.metadata?.name ?? "?"}`;
  if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") {
    problem(where, "apiVersion and kind are required");
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
  for (const k of ["requests", "limits"]) {
    if (!c.resources?.[k]?.cpu || !c.resources?.[k]?.memory) problem(d, `resources.${k} needs cpu and memory`);
  }
  const sc = c.securityContext ?? {};
  const psc = pod.spec.securityContext ?? {};
  if (!(sc.runAsNonRoot ?? psc.runAsNonRoot)) problem(d, "runAsNonRoot is not set");
  if (sc.readOnlyRootFilesystem !== true) problem(d, "readOnlyRootFilesystem is not true");
  if (sc.allowPrivilegeEscalation !== false) problem(d, "allowPrivilegeEscalation is not false");
  if (!sc.capabilities?.drop?.includes("ALL")) problem(d, "capabilities do not drop ALL");
  if (!c.volumeMounts?.some((m) => m.mountPath === "/tmp")) problem(d, "no writable /tmp under a read-only root");
  const spoolMount = c.volumeMounts?.find((m) => m.mountPath === "/var/lib/outpost/spool");
  if (!spoolMount) problem(d, "no volume on the tunnel spool /var/lib/outpost/spool");
  else if (!(deploy.spec.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === spoolMount.name)) {
    problem(d, "the spool is not on a volumeClaimTemplate, so it would not outlive the pod");
  }
  if (!find("Service").some((s) => s.metadata.name === deploy.spec.serviceName && s.spec?.clusterIP === "None")) {
    problem(d, `serviceName ${deploy.spec.serviceName} is not a headless Service`);
  }

  // The grace period must cover the preStop sleep plus the server's drain deadline.
  const config = Object.assign({}, ...find("ConfigMap").map((m) => m.data ?? {}));
  const drainSeconds = Number(config.SHUTDOWN_TIMEOUT_MS ?? 10_000) / 1000;
  const cmd = c.lifecycle?.preStop?.exec?.command ?? [];
  const preStop = cmd[0] === "sleep" ? Number(cmd[1]) : (c.lifecycle?.preStop?.sleep?.seconds ?? 0);
  if (!preStop) problem(d, "no preStop sleep to let endpoints drop the pod before the drain");
  const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
  if (grace <= preStop + drainSeconds) {
    problem(d, `terminationGracePeriodSeconds ${grace} <= preStop ${preStop}s + drain ${drainSeconds}s`);
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

if (kustomization) {
  const listed = new Set(kustomization.obj.resources ?? []);
  for (const f of files) {
    if (f !== kustomization.file && !listed.has(f)) problem(kustomization.file, `does not list ${f}`);
  }
  for (const f of listed) if (!files.includes(f)) problem(kustomization.file, `lists missing ${f}`);
}

if (problems.length) {
  console.error(`deploy/validate: ${problems.length} problem(s) in ${dir}\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`deploy/validate: ${objects.length} objects in ${files.length} files are valid (${dir})`);
