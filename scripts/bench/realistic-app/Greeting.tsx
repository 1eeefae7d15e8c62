import type { PageProps } from "../../../src/shared/routing/module";

/** The session group's page: the same component for the page that reads the session and the one that does not. */
export default function Greeting({ data }: PageProps<{ name: string }>) {
  return (
    <main>
      <h1>Hello, {data.name}</h1>
      <p>Your basket is waiting.</p>
    </main>
  );
}
