import { describe, expect, it } from "vitest";
import { type PageCacheService, registerPageCache, revalidatePath, revalidateTag } from "#src/server/routing/revalidation";

/** A page cache that records what it was asked to drop. */
function recordingCache(): PageCacheService & { dropped: string[] } {
  const dropped: string[] = [];
  return {
    dropped,
    revalidateTag: async (tag) => void dropped.push(`tag:${tag}`),
    revalidatePath: async (path) => void dropped.push(`path:${path}`),
  };
}

describe("revalidateTag and revalidatePath", () => {
  it("throw where no page cache exists (the browser), naming where they run", async () => {
    await expect(revalidateTag("articles")).rejects.toThrow(/revalidateTag\(\) runs on the server/);
    await expect(revalidatePath("/a")).rejects.toThrow(/revalidatePath\(\) runs on the server/);
  });

  it("reach every page cache of the process, as they reach every replica", async () => {
    const one = recordingCache();
    const two = recordingCache();
    registerPageCache(one);
    registerPageCache(two);
    await revalidateTag("articles");
    await revalidatePath("/articles/1");
    expect(one.dropped).toEqual(["tag:articles", "path:/articles/1"]);
    expect(two.dropped).toEqual(one.dropped);
  });

  it("refuse a tag or a path they cannot keep, naming it", async () => {
    registerPageCache(recordingCache());
    await expect(revalidateTag("two words")).rejects.toThrow(/"two words"/);
    await expect(revalidatePath("articles")).rejects.toThrow(/starting with "\/"/);
  });
});
