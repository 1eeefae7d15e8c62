import { decode, encode } from "@jridgewell/sourcemap-codec";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types
import { trimMappings } from "../../scripts/build/server-plugins.mjs";

describe("trimMappings (server source maps keep the project's code only)", () => {
  it("drops vendor segments, marking where each vendor run starts, and keeps project segments as they were", () => {
    // Sources: 0 is the project's, 1 a package's.
    const isVendor = [false, true];
    const mappings = encode([
      [
        [0, 0, 10, 4],
        [5, 1, 200, 0],
        [9, 1, 201, 2],
        [14, 0, 11, 0, 0],
      ],
      [[0, 1, 300, 0]],
      [
        [2, 1, 301, 0],
        [7, 0, 12, 8],
      ],
    ]);
    expect(decode(trimMappings(mappings, isVendor) as string)).toEqual([
      [
        [0, 0, 10, 4],
        [5],
        [14, 0, 11, 0, 0],
      ],
      [[0]],
      [[7, 0, 12, 8]],
    ]);
  });
});
