// Opens a command's channel, telling a refusal by the server (sshd MaxSessions, …) from a connection that closed.
import type { ClientChannel, PseudoTtyOptions } from "ssh2";
import { ExecProcessError } from "../../engine/index.js";
import type { NodeConnection } from "./node-connection.js";

export const connectionClosed = (node: string): ExecProcessError =>
  new ExecProcessError({ code: "node-connect-failed", param: "node", node, reason: "the connection closed" });

/** The channel could not be opened although the connection is up. */
export class ChannelRefused extends Error {}

export function openChannel(connection: NodeConnection, line: string, pty: PseudoTtyOptions | undefined): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | undefined, channel?: ClientChannel): void => {
      if (!error && channel) return resolve(channel);
      if (connection.closed) reject(connectionClosed(connection.node));
      else reject(new ChannelRefused((error?.message ?? "no channel").replace(/^\(SSH\) /, "")));
    };
    try {
      if (pty) connection.client.exec(line, { pty }, done);
      else connection.client.exec(line, done);
    } catch {
      reject(connectionClosed(connection.node)); // ssh2 throws "Not connected" once the socket is no longer writable
    }
  });
}
