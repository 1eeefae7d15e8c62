/** A Standard Schema's result (https://standardschema.dev): the value, or the issues. */
type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined }[] };

/** Any Standard Schema (zod 4, Valibot, ArkType): what a route's `searchParams` export may be. */
export interface SearchSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** What `search` is for a route's schema (`typeof searchParams`): its parsed output; `unknown` without one. */
export type SearchOf<Schema> = Schema extends SearchSchema<infer Output> ? Output : unknown;

/** One failed check of the query, as the error component gets them in `error.data.issues`. */
export interface SearchIssue {
  /** The query parameter (and any path below it), e.g. `["page"]`. */
  path: string[];
  message: string;
}
