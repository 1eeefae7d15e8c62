import { type FieldErrors, Form, type LoaderData, type PageProps, useActionData, useSearchParams } from "#outpost";
import type { load, NOTE_FIELDS } from "./FormPage.server";

type Field = (typeof NOTE_FIELDS)[number];

interface Answer {
  errors?: FieldErrors<Field>;
  values?: Record<Field, string>;
  savedNote?: string;
}

/**
 * A form on an action: validation (422), revalidated loader data, post/redirect/get, an action
 * error; and a preview button whose formmethod makes it a GET of this page instead.
 */
export default function FormPage({ data }: PageProps<LoaderData<typeof load>>) {
  const answer = useActionData<Answer>();
  const [searchParams] = useSearchParams();
  const preview = searchParams.get("intent") === "preview" ? searchParams.get("note") : null;
  return (
    <section>
      <h1>Form diagnostics</h1>
      <p id="saved-count">{`saved ${data.saved}`}</p>
      {answer?.savedNote ? <p id="saved-note">{`saved: ${answer.savedNote}`}</p> : null}
      {preview !== null ? <p id="note-preview">{`preview: ${preview}`}</p> : null}
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
            <button type="submit" name="intent" value="preview" formMethod="get">
              Preview
            </button>
          </>
        )}
      </Form>
    </section>
  );
}
