// exec as an MCP task (issue 22, spec 2025-11-25): a task-augmented tools/call of exec starts a background session
// whose end is the task's end, tasks/cancel kills it, and a plain call of exec is unchanged.
import { CallToolResultSchema, ErrorCode, McpError, TaskStatusNotificationSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks";
import { describe, expect, it } from "vitest";
import * as messages from "../../src/engine/messages.js";
import { TASKS_CAPABILITY } from "../../mcp/tasks.js";
import {
  call, markerProcessesNow, processesWithMarker, stdioServerTests, texts, until, type Connected,
} from "./helpers.js";

const { workspace, connect } = stdioServerTests();

/** A server over stdio, and the notifications/tasks/status it sent, in order. */
async function server(): Promise<Connected & { statuses: Task[] }> {
  const connected = await connect();
  const statuses: Task[] = [];
  connected.client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
    statuses.push(notification.params as Task);
  });
  return { ...connected, statuses };
}

async function startTask(connected: Connected, args: Record<string, unknown>): Promise<Task> {
  const { task } = await connected.client.request(
    { method: "tools/call", params: { name: "exec", arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema,
  );
  return task;
}

describe("tools/list and capabilities", () => {
  it("declares the tasks capability and offers exec, and only exec, with taskSupport optional", async () => {
    const { client } = await server();
    expect(client.getServerCapabilities()?.tasks).toEqual(TASKS_CAPABILITY);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([["exec", { taskSupport: "optional" }], ["process", undefined]]);
  });
});

describe("exec as a task", () => {
  it("answers with a working task that completes with the terminal poll's text and details", async () => {
    const connected = await server();
    const { client, statuses } = connected;
    const task = await startTask(connected, { command: "sleep 0.5; echo done" });
    expect(task).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 1_000 });
    await until(() => statuses.some((status) => status.taskId === task.taskId), "notifications/tasks/status");
    expect(statuses.map(({ taskId, status }) => ({ taskId, status }))).toEqual([{ taskId: task.taskId, status: "completed" }]);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(texts(result)).toEqual([`done\n\n${messages.processExitedWith("code 0")}`]);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ status: "completed", exitCode: 0, aggregated: "done\n" });
  });

  it("ends as failed when the session's outcome is failed (killed by a signal), as its exit event says", async () => {
    const connected = await server();
    const task = await startTask(connected, { command: "echo broken; kill -KILL $$" });
    const result = await connected.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect((await connected.client.experimental.tasks.getTask(task.taskId)).status).toBe("failed");
    expect(result.structuredContent).toMatchObject({ status: "failed", exitCode: null, exitSignal: "SIGKILL", aggregated: "broken\n" });
    expect(texts(result)).toEqual([`broken\n\n${messages.processExitedWith("signal SIGKILL")}`]);
  });

  it("kills the session on tasks/cancel, and the task ends cancelled", async () => {
    const connected = await server();
    const task = await startTask(connected, { command: "sleep 30", env: { CONFORMANCE_SCENARIO: workspace.marker } });
    await until(() => markerProcessesNow(workspace.marker, "sleep").length === 1, "the marked sleep's start");
    const cancelled = await connected.client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    expect(await processesWithMarker(workspace.marker)).toEqual([]);
    expect((await connected.client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
  });

  it("refuses a task-augmented call of process with -32601", async () => {
    const { client } = await server();
    const refused = await client.request(
      { method: "tools/call", params: { name: "process", arguments: { action: "list" }, task: {} } }, CreateTaskResultSchema,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.MethodNotFound);
  });
});

describe("a plain exec", () => {
  it("still answers with its result directly and creates no task", async () => {
    const { client } = await server();
    const result = await call(client, "exec", { command: "echo plain" });
    expect(texts(result)).toEqual(["plain"]);
    expect(result.structuredContent).toMatchObject({ status: "completed", exitCode: 0 });
    expect((await client.experimental.tasks.listTasks()).tasks).toEqual([]);
  });
});
