// The benchmark rows, in report order.
import type { RowOptions, RowResult } from "./bench-kit.js";
import { benchConcurrentSessions } from "./row-concurrent-sessions.js";
import { benchConformance } from "./row-conformance.js";
import { benchExecLatency } from "./row-exec-latency.js";
import { benchFlood } from "./row-flood.js";
import { benchLogTail } from "./row-log-tail.js";
import { benchOutputThroughput } from "./row-output-throughput.js";
import { benchPollWakeup } from "./row-poll-wakeup.js";
import { benchHostExecLatency, benchHostPollWakeup, benchHostSessions } from "./row-session-host.js";
import { benchWatch } from "./row-watch.js";

export interface RowDefinition {
  id: string;
  run(options: RowOptions): Promise<RowResult>;
  /** Only run when asked for (it takes minutes). */
  optional?: boolean;
}

export const ROWS: readonly RowDefinition[] = [
  { id: "exec-true", run: benchExecLatency },
  { id: "output-50mb", run: benchOutputThroughput },
  { id: "poll-wakeup", run: benchPollWakeup },
  { id: "flood", run: benchFlood },
  { id: "sessions-200", run: benchConcurrentSessions },
  { id: "log-tail", run: benchLogTail },
  { id: "host-exec-true", run: benchHostExecLatency },
  { id: "host-poll-wakeup", run: benchHostPollWakeup },
  { id: "host-sessions-200", run: benchHostSessions },
  { id: "watch-50mb", run: benchWatch },
  { id: "conformance", run: benchConformance, optional: true },
];
