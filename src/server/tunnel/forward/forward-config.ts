import type { HeldBytes } from "../body/body-copy";
import type { Spool } from "../spool";
import type { ClientReports } from "../reports/client-reports";
import type { RequestDispatcher, TunnelLogger, TunnelObserver } from "../contract/types";
import type { ForwardIp } from "../contract/types";
import type { Reject } from "./reject";
import type { ScrubDropListener, ScrubMode } from "../scrub";

/** What forwarding an envelope needs: where and how to send it, how to answer, where to spool it. */
export interface ForwardConfig {
  dispatcher: RequestDispatcher;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxBytes: number;
  observer: TunnelObserver | undefined;
  logger: TunnelLogger | undefined;
  reject: Reject;
  /** What of the visitor's address goes upstream; `full` when absent. */
  forwardIp?: ForwardIp;
  /** `defaults`: events and transactions are scrubbed before they leave (see scrub/); off when absent. */
  scrub?: ScrubMode;
  /** Hears of items the scrubber dropped, for client reports. */
  onDrop?: ScrubDropListener;
  /** Absent: not spooling. */
  spool: Spool | undefined;
  /** What copies of streamed envelopes may hold, across uploads, until the ingest answers (see BodyCopy); with the spool. */
  spoolMemory: HeldBytes | undefined;
  /** What the tunnel dropped, reported to each DSN's ingest; absent: off. */
  reports: ClientReports | undefined;
}
