// Types of scripts/sshd-fixture.mjs.
export interface SshdFixture {
  host: string;
  port: number;
  username: string;
  dir: string;
  privateKey: string;
  hostKey: string;
  /** Why this sshd cannot give a session a terminal (a plain user's sshd, /dev/pts without gid=5), or undefined. */
  terminalUnavailableReason(): string | undefined;
  stop(): Promise<void>;
}
export function sshdUnavailableReason(): string | undefined;
export interface SshdOptions {
  /** sshd MaxSessions: channels per connection. @default 100 (sshd's own default is 10) */
  maxSessions?: number;
  /** What the login prints on stdout and stderr before every command, and how long it then takes to start it. */
  loginStartup?: { stdout?: string; stderr?: string; delayMs?: number };
  /** Variables every session gets (sshd SetEnv), such as DOCKER_HOST for a Docker host reached over ssh. */
  setEnv?: Record<string, string>;
}
export function startSshd(options?: SshdOptions): Promise<SshdFixture>;
