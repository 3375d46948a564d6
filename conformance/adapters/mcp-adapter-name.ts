// The adapter name of an MCP server, as the compliance matrix records it; apart from mcp-client.ts, so that
// naming the adapter does not load the MCP SDK.
export const mcpAdapterName = (command: string): string => `mcp: ${command}`;
