export { createMetrics, type Metrics, type TunnelObserver } from "./metrics";
export { type MetricsServer, type MetricsServerOptions, startMetricsServer } from "./server";
