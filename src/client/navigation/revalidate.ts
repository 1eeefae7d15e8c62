// Stand-in until client-side navigation lands: that module re-fetches the current URL's
// loader data and re-renders without a reload.
export async function revalidate(): Promise<void> {
  window.location.reload();
}
