import { type ActionContext, Await, type FieldErrors, type LoaderContext, type PageProps, useActionData, useFetcher } from "#outpost";
import { actionData, httpError, redirect } from "#outpost/server";
import { type Equal, expectType } from "./assert";
import "./type-test-table";

// An action of every shape: data with a status, a thrown 4xx and redirect (which add nothing), plain data.
async function action({ body, params }: ActionContext<"/type-tests/notes/:id">) {
  const form = body as Record<string, string>;
  if (form.intent === "delete") redirect("/type-tests/notes", 303);
  if (params.id === "locked") httpError(423, { reason: "locked" });
  if (!form.title) return actionData({ errors: { title: "Required" } as FieldErrors<"title"> }, { status: 422 });
  return { saved: true as const, id: params.id };
}

type Answer = { errors: FieldErrors<"title"> } | { saved: true; id: string };

// A loader with a deferred value: its promise type reaches the page and <Await>.
function load({ params }: LoaderContext<"/type-tests/notes/:id">) {
  return { title: `Note ${params.id}`, stats: Promise.resolve({ views: 3 }) };
}

export function NotePage({ data, params }: PageProps<"/type-tests/notes/:id", typeof load>) {
  expectType<Equal<typeof params, { readonly id: string }>>(true);
  expectType<Equal<typeof data.stats, Promise<{ views: number }>>>(true);

  const answer = useActionData<typeof action>();
  expectType<Equal<typeof answer, Answer | undefined>>(true);
  const fetcher = useFetcher<typeof action>();
  expectType<Equal<typeof fetcher.data, Answer | undefined>>(true);
  const loaded = useFetcher<typeof load>();
  expectType<Equal<typeof loaded.data, { title: string; stats: Promise<{ views: number }> } | undefined>>(true);

  // The older form: the data type named by hand.
  expectType<Equal<ReturnType<typeof useActionData<{ ok: boolean }>>, { ok: boolean } | undefined>>(true);
  expectType<Equal<ReturnType<typeof useActionData>, unknown>>(true);

  // @ts-expect-error -- Property 'title' does not exist on type '{ saved: true; id: string; }'
  const wrongField: string | undefined = answer && "saved" in answer ? answer.title : undefined;
  // @ts-expect-error -- the action's data is no number
  const wrongType: number | undefined = fetcher.data;

  return (
    <>
      <h1>{data.title}</h1>
      <p>{wrongField ?? wrongType}</p>
      <Await resolve={data.stats}>
        {(stats) => {
          expectType<Equal<typeof stats, { views: number }>>(true);
          // @ts-expect-error -- Property 'likes' does not exist on type '{ views: number; }'
          return <span>{stats.likes}</span>;
        }}
      </Await>
    </>
  );
}
