// The source of a minimal adapter module for kit runs on fixture features: every call returns the text "hi" as a
// completed result. `prelude` is code that runs when a process loads the module; `hooks`, code that runs when an
// instance is disposed and when the kit closes the adapter (ConformanceAdapter.close).
export function fixtureAdapterSource(prelude = "", hooks: { dispose?: string; close?: string } = {}): string {
  return `${prelude}
const result = (text) => ({ kind: "result", text, details: { status: "completed", sessionId: "s1" }, isError: false, updates: [] });
export default () => ({
  name: "fixture", capabilities: [],
  async start() {
    return {
      async call() { return result("hi"); },
      async drainEvents() { return []; }, async peekEvents() { return []; }, async wakes() { return []; },
      async clearFinished() { return 0; }, async liveSessionIds() { return []; }, async dispose() { ${hooks.dispose ?? ""} },
    };
  },${hooks.close ? `\n  async close() { ${hooks.close} },` : ""}
});
`;
}
