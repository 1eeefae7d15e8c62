import { describe, expect, it } from "vitest";
import { createNonce } from "#src/server/http/nonce";

describe("createNonce", () => {
  it("gives 128-bit base64 nonces that never repeat, across pool refills", () => {
    const nonces = Array.from({ length: 1_000 }, createNonce);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});
