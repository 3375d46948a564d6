// The session hosts of the kit's pass through a session host (issue 33), in a process of their own: one such process
// per kit worker makes a host (createSessionHost, the public API) per scenario, with the scenario's engine options,
// since a host owns one engine and an engine takes its environment, cwd and config at creation. A new process per
// scenario would cost a Node start each time; the hosts are still in another process than the kit and its client.
// Requests and answers are JSON lines on stdin and stdout; the first line out is {"token"}, which every host takes.
//   {"id": 1, "start": StartOptions}   → {"id": 1, "socketPath": "…"}
//   {"id": 2, "stop": "<socketPath>"}  → {"id": 2}   (the host closes: every session of the scenario ends)
// The end of stdin closes every host, and the process exits.
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import type { StartOptions } from "../adapter.js";
import { createSessionHost, type SessionHost } from "../../src/host/index.js";
import { spawnFaults } from "./spawn-faults.js";

const token = randomBytes(32).toString("hex");
const hosts = new Map<string, SessionHost>();
const reply = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

async function start(options: StartOptions): Promise<string> {
  const throwing = options.faults?.throwingCallbacks === true;
  const host = await createSessionHost({
    token,
    engine: {
      cwd: options.cwd,
      env: options.env,
      config: options.config,
      ...(options.faults ? { faults: spawnFaults(options.faults) } : {}),
      ...(options.inputWaitIdleMs !== undefined ? { inputWaitIdleMs: options.inputWaitIdleMs } : {}),
      ...(throwing ? {
        onWake: () => { throw new Error("fault: the wake callback throws"); },
        onSystemEvent: () => { throw new Error("fault: the event callback throws"); },
      } : {}),
    },
  });
  if (host.address.kind !== "unix") throw new Error("expected a unix socket");
  hosts.set(host.address.socketPath, host);
  return host.address.socketPath;
}

reply({ token });
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = JSON.parse(line) as { id: number; start?: StartOptions; stop?: string };
  if (request.start) {
    start(request.start).then((socketPath) => reply({ id: request.id, socketPath }), (error: Error) => reply({ id: request.id, error: error.message }));
  } else if (request.stop !== undefined) {
    const host = hosts.get(request.stop);
    hosts.delete(request.stop);
    void (host?.close() ?? Promise.resolve()).then(() => reply({ id: request.id }));
  }
});
lines.once("close", () => {
  void Promise.all([...hosts.values()].map((host) => host.close())).then(() => process.exit(0));
});
