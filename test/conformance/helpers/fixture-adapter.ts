// The source of a minimal adapter module for kit runs on fixture features: every call returns the text "hi" as a
// completed result. `prelude` is code that runs when a process loads the module.
export function fixtureAdapterSource(prelude = ""): string {
  return `${prelude}
const result = (text) => ({ kind: "result", text, details: { status: "completed", sessionId: "s1" }, isError: false, updates: [] });
export default () => ({
  name: "fixture", capabilities: [],
  async start() {
    return {
      async call() { return result("hi"); },
      async drainEvents() { return []; }, async peekEvents() { return []; }, async wakes() { return []; },
      async clearFinished() { return 0; }, async liveSessionIds() { return []; }, async dispose() {},
    };
  },
});
`;
}
