import type { HeadTags, LoaderData, PageProps } from "../../../src/shared/routing/module";
import type { load } from "./Products.server";

type Props = PageProps<LoaderData<typeof load>>;

export const head = ({ data }: Props): HeadTags => ({ title: `Products (${data.rows.length}) · Shop` });

/** The realistic page: every row of the loader's data as a table row. */
export default function Products({ data }: Props) {
  return (
    <section>
      <h1>Products</h1>
      <table>
        <thead>
          <tr>
            <th>Id</th>
            <th>Name</th>
            <th>Price</th>
            <th>Date</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td>{row.name}</td>
              <td>{`$${row.price.toFixed(2)}`}</td>
              <td>
                <time dateTime={row.date}>{row.date}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
