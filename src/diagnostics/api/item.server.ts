import type { ActionContext } from "#outpost";

/**
 * A resource route with a handler per method, as a JSON API has: GET reads, PUT and PATCH echo
 * the body they were sent with the id, DELETE answers 204; HEAD is GET's, any other method 405 with Allow.
 */
type ItemContext = ActionContext<"/diagnostics/api/items/:id">;

export function GET({ params }: ItemContext) {
  return { id: params.id };
}

/** The body's fields with the item's id (the route's id wins over one in the body); a body that is no object stays under `body`. */
export function PUT({ params, body }: ItemContext) {
  const fields = body !== null && typeof body === "object" && !Array.isArray(body) ? body : { body };
  return { ...fields, id: params.id };
}

export const PATCH = PUT;

export function DELETE() {
  return new Response(null, { status: 204 });
}
