/** Never rendered: its loader always answers 403, which the layout's error component shows. */
export default function ForbiddenPage() {
  return null;
}
