import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../support/paths";

// What makes an update of deploy/kubernetes invisible to visitors, read from the manifests as
// kubectl would apply them (each object checked against its Kubernetes schema first).
const MANIFESTS = path.join(ROOT, "deploy", "kubernetes");

function objectsOfKind(kind: string): Record<string, unknown>[] {
  const files = readdirSync(MANIFESTS).filter((file) => file.endsWith(".yaml"));
  const docs = files.flatMap((file) => parseAllDocuments(readFileSync(path.join(MANIFESTS, file), "utf8")).map((doc) => doc.toJS() as Record<string, unknown>));
  return docs.filter((doc) => doc?.kind === kind);
}

function only<T extends { validate(): void }>(kind: string, Model: new (data: never) => T): T {
  const found = objectsOfKind(kind);
  expect(found, `exactly one ${kind}`).toHaveLength(1);
  const model = new Model(found[0] as never);
  model.validate();
  return model;
}

const statefulSet = only("StatefulSet", StatefulSet);
const budget = only("PodDisruptionBudget", PodDisruptionBudget);
const autoscaler = only("HorizontalPodAutoscaler", HorizontalPodAutoscaler);
const container = statefulSet.spec?.template.spec?.containers[0];

describe("the manifests roll one replica at a time, each ready before it takes traffic", () => {
  it("updates with RollingUpdate, every pod (partition 0), at most one unavailable", () => {
    expect(statefulSet.spec?.updateStrategy?.type).toBe("RollingUpdate");
    expect(statefulSet.spec?.updateStrategy?.rollingUpdate).toEqual({ partition: 0, maxUnavailable: 1 });
  });

  it("moves on only once an updated pod has stayed ready for minReadySeconds, at least one readiness period", () => {
    const period = container?.readinessProbe?.periodSeconds ?? 10;
    expect(statefulSet.spec?.minReadySeconds ?? 0).toBeGreaterThanOrEqual(period);
  });

  it("sends traffic only to a pod whose /readyz answers (503 until listening and while draining), after its start-up probe", () => {
    expect(container?.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container?.startupProbe?.httpGet?.path).toBe("/healthz");
    expect(container?.ports?.some((port) => port.name === "http")).toBe(true);
  });

  it("keeps serving through preStop while endpoints drop the pod, within the grace period", () => {
    const command = container?.lifecycle?.preStop?.exec?.command ?? [];
    expect(command[0]).toBe("sleep");
    const preStopSeconds = Number(command[1]);
    // At least one readiness period: balancers that poll endpoints have seen the pod go.
    expect(preStopSeconds).toBeGreaterThanOrEqual(5);
    expect(statefulSet.spec?.template.spec?.terminationGracePeriodSeconds ?? 30).toBeGreaterThan(preStopSeconds);
  });

  it("lets a voluntary disruption (a node drain) take one pod at a time, and always leaves one serving", () => {
    expect(budget.spec?.maxUnavailable).toBe(1);
    expect(budget.spec?.minAvailable).toBeUndefined();
    expect(budget.spec?.selector?.matchLabels).toEqual(statefulSet.spec?.selector.matchLabels);
    expect(autoscaler.spec?.minReplicas ?? 1).toBeGreaterThanOrEqual(2);
    expect(statefulSet.spec?.replicas).toBeUndefined();
  });
});
