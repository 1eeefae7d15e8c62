export function load() {
  return { renderedAt: new Date().toISOString() };
}
