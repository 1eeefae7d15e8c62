/** The Redis key holding a published asset's bytes: by URL path, so every build that has the file shares the key. */
export const sharedAssetKey = (urlPath: string): string => `outpost:asset:${urlPath}`;
