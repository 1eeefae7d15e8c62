import { type FieldErrors, Form, type LoaderData, type PageProps, useActionData } from "#outpost";
import type { load, NOTE_FIELDS } from "./FormPage.server";

type Field = (typeof NOTE_FIELDS)[number];

interface Answer {
  errors?: FieldErrors<Field>;
  values?: Record<Field, string>;
  savedNote?: string;
}

/** A form on an action: validation (422), revalidated loader data, post/redirect/get, an action error. */
export default function FormPage({ data }: PageProps<LoaderData<typeof load>>) {
  const answer = useActionData<Answer>();
  return (
    <section>
      <h1>Form diagnostics</h1>
      <p id="saved-count">{`saved ${data.saved}`}</p>
      {answer?.savedNote ? <p id="saved-note">{`saved: ${answer.savedNote}`}</p> : null}
      <Form noValidate id="diagnostic-form">
        {({ pending }) => (
          <>
            <label htmlFor="note">Note</label>
            <input id="note" name="note" defaultValue={answer?.values?.note} aria-invalid={answer?.errors?.note ? true : undefined} />
            {answer?.errors?.note ? <p data-error-for="note">{answer.errors.note}</p> : null}
            <p id="form-state">{pending ? "pending" : "idle"}</p>
            <button type="submit" name="intent" value="save">
              Save
            </button>
            <button type="submit" name="intent" value="redirect">
              Save and redirect
            </button>
            <button type="submit" name="intent" value="fail">
              Fail
            </button>
          </>
        )}
      </Form>
    </section>
  );
}
