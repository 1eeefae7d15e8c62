import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductApp } from "../../support/product-app";
import { until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { type Replica, roundRobin, startReplica } from "../../server/limits/replicas";

describe.skipIf(!redisAvailable)("feedback on three replicas sharing one Redis", () => {
  let redis: TestRedis;
  let replicas: Replica[];
  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([1, 2, 3].map(() => startReplica(redis.url, "http://abc123@127.0.0.1:9/42", 4, startProductApp)));
    await until(() => replicas.every((replica) => replica.app.deps.redis?.up === true), 5_000);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis.stop();
  });

  it("limit one client's feedback to five a minute across the three", async () => {
    const form = new URLSearchParams({ message: "it broke" }).toString();
    const answers = await roundRobin(replicas, 9, (url) =>
      fetch(`${url}/feedback`, { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" }),
    );
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303, 303, 303, 429, 429, 429, 429]);
    expect(Number(answers.at(-1)?.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
