/** The same for every visitor, so shared caches may keep it a minute; the server answers revalidations with 304. */
export const headers = { "Cache-Control": "public, max-age=60" };

export function load() {
  return { note: "This page is the same for everybody." };
}
