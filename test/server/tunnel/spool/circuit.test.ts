import { describe, expect, it } from "vitest";
import { backoffDelay } from "#src/server/tunnel/spool/backoff";
import { Circuit } from "#src/server/tunnel/spool/circuit";

describe("Circuit", () => {
  it("opens after the threshold, lets one probe through after the backoff, and closes on its success", () => {
    let now = 0;
    const states: string[] = [];
    const circuit = new Circuit(2, { baseMs: 100, capMs: 100 }, (state) => states.push(state), () => now);
    circuit.failed();
    expect(circuit.tryUpstream()).toBe("closed");
    circuit.failed();
    expect(circuit.state).toBe("open");
    expect(circuit.tryUpstream()).toBe(undefined);
    now = 100;
    expect(circuit.tryUpstream()).toBe("probe");
    expect(circuit.tryUpstream()).toBe(undefined);
    circuit.failed();
    expect(circuit.state).toBe("open");
    now = 200;
    expect(circuit.tryUpstream()).toBe("probe");
    circuit.succeeded();
    expect(states).toEqual(["open", "half_open", "open", "half_open", "closed"]);
  });

  it("is reopened by its probe ending without a verdict, not by a request let through before it opened", () => {
    let now = 0;
    const circuit = new Circuit(1, { baseMs: 100, capMs: 100 }, undefined, () => now);
    const early = circuit.tryUpstream();
    circuit.failed();
    now = 100;
    const probe = circuit.tryUpstream();
    expect([early, probe]).toEqual(["closed", "probe"]);
    // The early request's client went away while the probe is in flight: no second probe.
    circuit.abandoned(early);
    expect(circuit.state).toBe("half_open");
    expect(circuit.tryUpstream()).toBe(undefined);
    circuit.abandoned(probe);
    expect(circuit.state).toBe("open");
    expect(circuit.tryUpstream()).toBe("probe");
  });

  it("backs off exponentially with jitter, capped", () => {
    const backoff = { baseMs: 500, capMs: 10_000 };
    expect(backoffDelay(backoff, 0, () => 0)).toBe(250);
    expect(backoffDelay(backoff, 0, () => 1)).toBe(500);
    expect(backoffDelay(backoff, 3, () => 1)).toBe(4_000);
    expect(backoffDelay(backoff, 50, () => 1)).toBe(10_000);
  });
});
