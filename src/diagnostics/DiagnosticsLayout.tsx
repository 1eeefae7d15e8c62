import { Outlet } from "#outpost";

/** The diagnostics pages (ENABLE_DIAGNOSTIC_ROUTES=true): one error path each, for checking reporting after a deploy. */
export default function DiagnosticsLayout() {
  return (
    <div className="diagnostics">
      <p className="muted">Diagnostics</p>
      <Outlet />
    </div>
  );
}
