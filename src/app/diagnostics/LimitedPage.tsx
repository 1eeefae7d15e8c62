/** Shown while the visitor is within the limit; past it, the error component shows the 429. */
export default function LimitedPage() {
  return <p id="limited-ok">Within the limit: three visits a minute from one address.</p>;
}
