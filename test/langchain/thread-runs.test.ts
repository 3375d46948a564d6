// ThreadRuns: which threads have a run in flight, and who is told when one ends.
import { describe, expect, it } from "vitest";
import { ThreadRuns } from "../../src/langchain/thread-runs.js";

describe("ThreadRuns", () => {
  it("marks a thread busy from begin to end and tells its idle listeners, not another thread's", () => {
    const runs = new ThreadRuns();
    const told: string[] = [];
    runs.onIdle("t1", () => void told.push("t1"));
    runs.onIdle("t2", () => void told.push("t2"));
    runs.begin("t1");
    expect([runs.isBusy("t1"), runs.isBusy("t2")]).toEqual([true, false]);
    runs.end("t1");
    runs.end("t1"); // a second end of the same run changes nothing
    expect(runs.isBusy("t1")).toBe(false);
    expect(told).toEqual(["t1"]);
  });

  it("ends the run when its abort signal fires", () => {
    const runs = new ThreadRuns();
    const controller = new AbortController();
    let told = 0;
    runs.onIdle("t1", () => void (told += 1));
    runs.begin("t1", controller.signal);
    controller.abort();
    expect(runs.isBusy("t1")).toBe(false);
    expect(told).toBe(1);
  });

  it("stops telling a removed listener", () => {
    const runs = new ThreadRuns();
    let told = 0;
    const remove = runs.onIdle("t1", () => void (told += 1));
    remove();
    runs.begin("t1");
    runs.end("t1");
    expect(told).toBe(0);
  });
});
