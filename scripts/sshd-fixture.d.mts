// Types of scripts/sshd-fixture.mjs.
export interface SshdFixture {
  host: string;
  port: number;
  username: string;
  dir: string;
  privateKey: string;
  hostKey: string;
  stop(): Promise<void>;
}
export function sshdUnavailableReason(): string | undefined;
export function startSshd(): Promise<SshdFixture>;
