/** Never rendered: its loader redirects to the home page. */
export default function RedirectPage() {
  return <p>Unreachable: the loader redirects.</p>;
}
