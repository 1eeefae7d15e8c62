// The loader of the realistic page: 1,000 rows, made afresh for every request as a query's
// result would be. Deterministic, so the floor's page and ours can be compared byte for byte.
const ADJECTIVES = ["Amber", "Brisk", "Cobalt", "Dusky", "Eager", "Fabled", "Gilded", "Hollow", "Ivory", "Jolly", "Keen"];
const NOUNS = ["Anchor", "Beacon", "Compass", "Drum", "Easel", "Flask", "Globe", "Harp", "Inkwell", "Jug", "Kettle", "Lantern", "Mug"];
const FIRST_DAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
// A year of dates, formatted once: the rows differ, their formatting cost is not what is measured.
const DATES = Array.from({ length: 366 }, (_, day) => new Date(FIRST_DAY + day * DAY_MS).toISOString().slice(0, 10));
export const ROW_COUNT = 1_000;

export interface ProductRow {
  id: number;
  name: string;
  /** In currency units, two decimals. */
  price: number;
  /** YYYY-MM-DD. */
  date: string;
}

export function load(): { rows: ProductRow[] } {
  const rows: ProductRow[] = new Array(ROW_COUNT);
  for (let i = 0; i < ROW_COUNT; i++) {
    rows[i] = {
      id: i + 1,
      name: `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[(i * 7) % NOUNS.length]}`,
      price: ((i * 7919) % 100_000) / 100,
      date: DATES[(i * 37) % DATES.length] as string,
    };
  }
  return { rows };
}
