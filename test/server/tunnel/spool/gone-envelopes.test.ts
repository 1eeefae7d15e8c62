import { expect, it } from "vitest";
import { until } from "../harness";
import { datedEnvelope, sharedFakeIngest, tunnelOverSpool } from "./spool-harness";

const ingest = sharedFakeIngest();

it("moves on when an envelope it was about to send was dropped meanwhile (a cap), rather than offering it again and again", async () => {
  const bodies = ["first", "second", "third"].map((tag) => datedEnvelope(ingest.dsn, tag));
  let goneReads = 0;
  const tunnel = await tunnelOverSpool(ingest, bodies, {
    prepare: (store) => {
      const read = store.body.bind(store);
      const [first] = store.after(0, 1);
      let dropped = false;
      // The first envelope leaves the store (as the byte or age cap removes it) just as its delivery reads it.
      store.body = (id) => {
        if (id !== first?.id) return read(id);
        if (!dropped) {
          dropped = true;
          store.remove([id]);
        }
        // Bounded, so that a worker offering it again and again gives up here instead of spinning for ever.
        if (++goneReads > 1_000) throw new Error("the same gone envelope was offered 1,000 times");
        return read(id);
      };
    },
  });
  try {
    await until(() => tunnel.store.stats().envelopes === 0, 5_000);
    const arrived = ingest.fake.requests.filter((request) => request.complete).map((request) => request.body.toString());
    expect(arrived.some((body) => body.includes('"message":"second"'))).toBe(true);
    expect(arrived.some((body) => body.includes('"message":"third"'))).toBe(true);
    expect(goneReads).toBe(1);
  } finally {
    await tunnel.close();
  }
});
