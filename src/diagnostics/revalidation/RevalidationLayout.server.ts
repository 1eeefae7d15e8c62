// Per instance: how often this layout's loader ran, which a navigation between its children must not change.
let runs = 0;

export function load() {
  runs += 1;
  return { runs };
}
