import type { ActionContext } from "#outpost";

/**
 * A resource route with a handler per method, as a JSON API has: GET reads, PUT and PATCH echo
 * the body they were sent, DELETE answers 204; HEAD is GET's, any other method 405 with Allow.
 */
type ItemContext = ActionContext<"/diagnostics/api/items/:id">;

export function GET({ params }: ItemContext) {
  return { id: params.id };
}

export function PUT({ params, method, body }: ItemContext) {
  return { id: params.id, method, body };
}

export const PATCH = PUT;

export function DELETE() {
  return new Response(null, { status: 204 });
}
