export function load() {
  return { child: "first" };
}
