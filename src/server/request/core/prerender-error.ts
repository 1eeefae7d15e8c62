/** A prerendered page's code read what only a visitor's request has: the build stops, naming the route. */
export class PrerenderError extends Error {
  override name = "PrerenderError";
  readonly route: string;
  readonly read: string;

  constructor(route: string, read: string) {
    super(
      `route ${route} is prerendered but its code read ${read} at build: a prerendered page is the same for every visitor, ` +
        "so it may read only its params (remove its `prerender` export, or stop reading the request)",
    );
    this.route = route;
    this.read = read;
  }
}
