// The conformance kit: the adapter contract, the reference adapter and the programmatic runner.
export type {
  AdapterFactory, AdapterInstance, BridgeProbe, BridgeProbeResult, CallOptions, CallOutcome, Capability,
  ConformanceAdapter, ExecutorRequest, FakeExecutorSpec, StartOptions, SystemEvent, ToolUpdate, WakeRequest,
} from "./adapter.js";
export { default as createReferenceAdapter } from "./adapters/reference.js";
export { runConformance, parseCli, LEVEL_TAGS, type CliOptions, type Level } from "./cli.js";
export { parseSpecRules, type RuleEntry, type Profile } from "./catalog/spec-rules.js";
