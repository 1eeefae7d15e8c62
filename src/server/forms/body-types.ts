// The body types a page action reads, shared by the checks in body-parser.ts and the parsers
// it loads on first use (koa-body-parsers.ts).
export const FORM_TYPE = "application/x-www-form-urlencoded";
export const MULTIPART_TYPE = "multipart/form-data";
export const JSON_TYPE = "application/json";
