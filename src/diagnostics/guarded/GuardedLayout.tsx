import { Outlet } from "#outpost";

/** A layout whose middleware lets only named visitors through. */
export default function GuardedLayout() {
  return (
    <div className="guarded">
      <Outlet />
    </div>
  );
}
