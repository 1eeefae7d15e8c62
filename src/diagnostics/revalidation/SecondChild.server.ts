export function load() {
  return { child: "second" };
}
