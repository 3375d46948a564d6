// An engine that stops answering (a stopped or wedged dockerd) must not hold a call forever (issue 32): every request
// is watched, and one still unanswered after ENGINE_PING_AFTER_MS makes the watch ping the engine. A ping answered
// means a slow request (a container being created on a loaded machine): the watch waits on, pinging again. A ping not
// answered within ENGINE_PING_WAIT_MS means the engine stopped: the request fails with container-engine-unresponsive.
// Together they stay within ENGINE_ANSWER_MS, and a loaded engine gets most of it to answer its ping.
import type Dockerode from "dockerode";
import { ExecProcessError } from "../../engine/index.js";
import { CONTAINER_LIMITS } from "./container-options.js";

const { ENGINE_ANSWER_MS, ENGINE_PING_AFTER_MS } = CONTAINER_LIMITS;

/** The engine a request goes to, as the watch needs it: how to ping it, and its name for the message. */
export interface WatchedEngine {
  docker: Pick<Dockerode, "ping">;
  endpoint: string;
}

/** `work`, or container-engine-unresponsive once the engine answers neither it nor a ping in time. */
export function watched<T>(
  engine: WatchedEngine, work: Promise<T>, answerMs: number = ENGINE_ANSWER_MS, pingAfterMs: number = ENGINE_PING_AFTER_MS,
): Promise<T> {
  const pingWaitMs = answerMs - pingAfterMs;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    const check = (): void => {
      timer = setTimeout(() => {
        const ping = (engine.docker.ping() as Promise<unknown>).then(() => true, () => false);
        void Promise.race([ping, delay(pingWaitMs).then(() => false)]).then((answered) => {
          if (settled) return;
          if (answered) check();
          else settle(() => reject(unresponsive(engine.endpoint, answerMs)));
        });
      }, pingAfterMs);
      timer.unref();
    };
    check();
    work.then((value) => settle(() => resolve(value)), (error: unknown) => settle(() => reject(error)));
  });
}

export function unresponsive(endpoint: string, waitedMs: number): ExecProcessError {
  return new ExecProcessError({ code: "container-engine-unresponsive", endpoint, waitedMs });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
