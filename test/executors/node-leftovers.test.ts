// What a lost connection leaves on a node is cleared over control once the node is reached, and kept until then.
import { describe, expect, it } from "vitest";
import { NodeLeftovers } from "../../src/executors/ssh/node-leftovers.js";
import { orphanKillLine, removeFileLine } from "../../src/executors/ssh/remote-command.js";

/** A control channel that is reachable or not, recording the lines it ran. */
function fakeControl() {
  const ran: string[] = [];
  let reachable = false;
  return {
    ran,
    setReachable: (value: boolean) => (reachable = value),
    run: async (line: string): Promise<number> => {
      if (!reachable) throw new Error("no open connection");
      ran.push(line);
      return 0;
    },
  };
}

describe("NodeLeftovers", () => {
  it("keeps orphans and unread environment files while the node is unreachable, and clears them once it is reached", async () => {
    const control = fakeControl();
    const leftovers = new NodeLeftovers(control.run);
    leftovers.addOrphan(4242, "98765");
    leftovers.addOrphan(undefined, undefined); // pid never reported: nothing to kill
    await leftovers.removeEnvFile("/tmp/.exec-process-env-a");
    await leftovers.clear();
    expect({ empty: leftovers.empty, ran: control.ran }).toEqual({ empty: false, ran: [] });
    control.setReachable(true);
    await leftovers.clear();
    expect(control.ran.sort()).toEqual([orphanKillLine(4242, "98765"), removeFileLine("/tmp/.exec-process-env-a")].sort());
    expect(leftovers.empty).toBe(true);
    await leftovers.clear();
    expect(control.ran).toHaveLength(2); // each one once
  });
});
