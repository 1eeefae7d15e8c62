/**
 * What an app's route table (src/app/routes.ts) is written in. Routes name their modules as
 * files relative to the app folder, as React Router's routes.ts does: the build turns each into
 * a lazily loaded chunk for the browser and, on the server, into the module plus its server-only
 * half (`X.server.ts` beside `X.tsx`), which never reaches the browser.
 */
export interface RouteConfig {
  /** Pattern relative to the parent: `items/:id`, `*` for the rest; none for index routes. */
  path?: string;
  /** Renders at its parent's own path. */
  index?: boolean;
  /** The route module, relative to the app folder: `home/HomePage.tsx`. */
  file: string;
  /** Served only with ENABLE_DIAGNOSTIC_ROUTES=true, with every route below it (the platform's diagnostics). */
  diagnostic?: boolean;
  /**
   * The folder, from the project root, that this route's file and those below it are named from;
   * the app's folder when absent. The platform's diagnostics (src/diagnostics/) set it.
   */
  folder?: string;
  children?: readonly RouteConfig[];
}

export interface AppConfig {
  /** The root layout: every page, the not-found page included, renders in its outlet. */
  root: string;
  /** Rendered in the root layout for unmatched paths and loaders that throw notFound(). */
  notFound: string;
  /**
   * The path of the app's own feedback page (`"/feedback"`), if it has one: the platform's error
   * pages then offer it ("Tell us what happened", with the event id), and `useFeedbackPage()` names it.
   */
  feedbackPage?: string;
  routes: readonly RouteConfig[];
}

/** A route entry whose pattern and children stay literal types, so the table's patterns are known to the compiler. */
export type TypedRoute<Path extends string, Children extends readonly RouteConfig[]> = RouteConfig & {
  path: Path;
  children?: Children;
};

/** An index route: it renders at its parent's own pattern. */
export type IndexRoute = RouteConfig & { index: true };

/** The table, its literal types kept for typed params and links (see routing/register.ts). */
export function defineApp<const Config extends AppConfig>(config: Config): Config {
  return config;
}

export function route<const Path extends string, const Children extends readonly RouteConfig[] = []>(
  path: Path,
  file: string,
  children?: Children,
  options: Pick<RouteConfig, "diagnostic"> = {},
): TypedRoute<Path, Children> {
  return { path, file, ...options, ...(children ? { children } : {}) };
}

export function index(file: string): IndexRoute {
  return { index: true, file };
}

/** A module's id: its file without the extension, e.g. `home/HomePage`. */
export function routeId(file: string): string {
  return file.replace(/\.[cm]?[jt]sx?$/, "");
}

/** Every module file the table names, root and not-found page first. */
export function routeFiles(config: AppConfig): string[] {
  const files = [config.root, config.notFound];
  const visit = (routes: readonly RouteConfig[]) => {
    for (const entry of routes) {
      files.push(entry.file);
      if (entry.children) visit(entry.children);
    }
  };
  visit(config.routes);
  return [...new Set(files)];
}
