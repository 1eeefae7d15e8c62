// esbuild bundles imported CSS into the entry's stylesheet; TypeScript only needs to know it exists.
declare module "*.css" {}
