import { describe, expect, it } from "vitest";
import { describeRedisFailure } from "#src/server/redis/redis-failure";

const reply = (message: string) => Object.assign(new Error(message), { command: { name: "auth", args: ["hunter2"] } });
const socket = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.7:6379`), { code });

describe("why Redis does not answer, as logged", () => {
  it.each([
    [reply("OOM command not allowed when used memory > 'maxmemory'."), "out of memory (OOM)"],
    [reply("WRONGPASS invalid username-password pair or user is disabled."), "authentication failed (NOAUTH/WRONGPASS)"],
    [reply("NOAUTH Authentication required."), "authentication failed (NOAUTH/WRONGPASS)"],
    [reply("NOPERM User outpost has no permissions to run the 'set' command"), "permission denied (NOPERM)"],
    [reply("READONLY You can't write against a read only replica."), "read-only (READONLY)"],
    [reply("LOADING Redis is loading the dataset in memory"), "loading (LOADING)"],
    [new Error("Command timed out"), "timed out: no answer within REDIS_TIMEOUT_MS (100 ms)"],
    [socket("ECONNREFUSED"), "connection refused"],
    [socket("ENOTFOUND"), "host not found"],
    [socket("ECONNRESET"), "connection reset"],
    [socket("EHOSTUNREACH"), "network error EHOSTUNREACH"],
    [reply("ERR AUTH hunter2 failed somehow"), "Redis answered ERR"],
    [undefined, "connection lost"],
  ])("%s reads as %s, naming neither the host nor the password", (error, reason) => {
    const described = describeRedisFailure(error, 100);
    expect(described.startsWith(reason)).toBe(true);
    expect(described).not.toMatch(/hunter2|10\.0\.0\.7/);
  });
});
