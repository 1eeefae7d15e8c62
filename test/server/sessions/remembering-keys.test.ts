import Keygrip from "keygrip";
import { describe, expect, it } from "vitest";
import { rememberingKeys } from "#src/server/sessions/remembering-keys";

const OLD = "an-old-secret-of-at-least-32-characters!!";
const NEW = "a-new-secret-of-at-least-32-characters!!!";
const COOKIE = "outpost.session=eyJuYW1lIjoiQWRhIn0=";

describe("rememberingKeys", () => {
  it("signs as keygrip does, so cookies signed before stay valid", () => {
    expect(rememberingKeys([NEW, OLD]).sign(COOKIE)).toBe(new Keygrip([NEW, OLD]).sign(COOKIE));
  });

  it("a remembered valid cookie does not vouch for another signature or value", () => {
    const keys = rememberingKeys([NEW]);
    const digest = new Keygrip([NEW]).sign(COOKIE);
    expect(keys.verify(COOKIE, digest)).toBe(true);
    expect(keys.verify(COOKIE, digest)).toBe(true);
    expect(keys.verify(COOKIE, `${digest.slice(0, -1)}A`)).toBe(false);
    expect(keys.verify(`${COOKIE}x`, digest)).toBe(false);
    expect(keys.verify(COOKIE, new Keygrip(["someone-else's-secret-of-32-chars-or-more"]).sign(COOKIE))).toBe(false);
  });

  it("tells which key signed (rotation), the same when remembered", () => {
    const keys = rememberingKeys([NEW, OLD]);
    const byOld = new Keygrip([OLD]).sign(COOKIE);
    expect([keys.index(COOKIE, byOld), keys.index(COOKIE, byOld)]).toEqual([1, 1]);
    expect(keys.index(COOKIE, "forged")).toBe(-1);
  });

  it("stays correct past its bound, whatever number of cookies it saw", () => {
    const keys = rememberingKeys([NEW]);
    const grip = new Keygrip([NEW]);
    for (let i = 0; i < 2_000; i++) expect(keys.verify(`c=${i}`, grip.sign(`c=${i}`))).toBe(true);
    expect(keys.verify("c=1", grip.sign("c=1"))).toBe(true);
    expect(keys.verify("c=1", grip.sign("c=2"))).toBe(false);
  });
});
