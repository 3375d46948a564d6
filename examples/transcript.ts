// Prints an agent conversation readably: role, tool name, arguments, result text; colored when stdout is a TTY.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

const useColor = process.stdout.isTTY === true && !process.env["NO_COLOR"];
const paint = (code: number) => (text: string): string => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);

export const style = {
  dim: paint(2), bold: paint(1), red: paint(31), green: paint(32), yellow: paint(33), blue: paint(34), magenta: paint(35), cyan: paint(36),
};

/** Indents every line of a tool result (PTY output uses CRLF). */
const indent = (text: string): string => text.replace(/\r\n/g, "\n").split("\n").map((line) => `    ${line}`).join("\n");

const textOf = (message: BaseMessage): string => (typeof message.content === "string" ? message.content : JSON.stringify(message.content));

export function printMessage(message: BaseMessage): void {
  const text = textOf(message);
  if (message instanceof ToolMessage) {
    const status = message.status === "error" ? style.red("error") : style.green("success");
    console.log(`${style.magenta("tool")} ${style.bold(message.name ?? "?")} ${style.dim("→")} ${status}`);
    console.log(indent(text));
  } else if (message instanceof AIMessage) {
    if (text) console.log(`${style.blue("assistant")} ${text}`);
    for (const call of message.tool_calls ?? []) {
      console.log(`${style.blue("assistant")} ${style.dim("calls")} ${style.bold(call.name)} ${JSON.stringify(call.args)}`);
    }
  } else if (message instanceof HumanMessage && text.startsWith("System: ")) {
    console.log(`${style.yellow("system event")} ${style.dim("(delivered by the middleware before the model call)")}`);
    console.log(indent(text));
  } else {
    console.log(`${style.cyan("user")} ${text}`);
  }
}

export function printHeading(title: string): void {
  console.log(`\n${style.bold(`== ${title} ==`)}`);
}
