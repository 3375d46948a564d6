// The session host (issue 33): one engine that the workers of a deployment share, and the engine they use it by.
export { createSessionHost, describeAddress, generateHostToken } from "./session-host.js";
export type { SessionHost } from "./session-host.js";
export { HOST_DEFAULTS } from "./host-options.js";
export type { HostAddress, SessionHostOptions, TlsFiles } from "./host-options.js";
export { connectSessionHost } from "./remote-engine.js";
export type { ConnectSessionHostOptions, RemoteSessionEngine } from "./remote-engine.js";
export { HOST_PROTOCOL_VERSION } from "./protocol.js";
export { BoundedLines, peekMessageId } from "./bounded-lines.js";
export { writeNewPrivateFile } from "./private-file.js";
export type { MessageId } from "./bounded-lines.js";
