// The one shape every spawn backend (pipes, PTY, host executor) presents to the rest of the engine.
import type { CursorKeyMode } from "../key-encoder.js";
import type { OutputStream } from "../output-buffer.js";

export type TerminationSignal = "SIGTERM" | "SIGKILL";

/** Where a backend delivers its events; given at spawn so no event can be missed. */
export interface ChildSink {
  /** Raw output as it arrives. PTY output is reported as stdout (OUT-02), without the terminal's queries (INPUT-16). */
  onOutput(stream: OutputStream, chunk: Uint8Array | string): void;
  /**
   * True when the sink copies whatever it keeps of a chunk: a backend may then pass views of one reused read
   * buffer, valid only during onOutput. Otherwise every chunk is the sink's to keep.
   */
  readonly copiesOutput?: boolean;
  /** The process has exited, its output may still be open (KILL-12); with its exit status when known. */
  onExit(code?: number | null, signal?: string | null): void;
  /** The process exited and all of its output was delivered (REG-04). Called once. */
  onComplete(code: number | null, signal: string | null): void;
}

export interface StdinHandle {
  write(data: string | Uint8Array): Promise<void>;
  /** Ends input: closes the pipe, or writes the EOF character on a terminal (PTY-07). */
  end(): void;
  readonly writable: boolean;
}

export interface ChildHandle {
  readonly pid: number | undefined;
  readonly pty: boolean;
  /** The cursor-key mode the program selected (KEYS-12): always `normal` without a terminal. */
  readonly cursorKeyMode: CursorKeyMode;
  /** Input, or undefined when the process has none (non-PTY stdin is closed at spawn, EXEC-45). */
  readonly stdin: StdinHandle | undefined;
  /** Signals the whole process tree; undefined when the process cannot be signalled (KILL-05). */
  readonly signal: ((signal: TerminationSignal) => void) | undefined;
  /** Releases listeners and descriptors (PTY-10). */
  release(): void;
  /** Processes that still hold the command's output open, e.g. ones that left its group (Linux). */
  readonly outputHolders?: () => number[];
  /** Stops the process from keeping the host alive (background sessions; host-exit cleanup ends them). */
  readonly unref?: () => void;
}

export interface SpawnRequest {
  shell: string;
  args: readonly string[];
  command: string;
  cwd: string;
  env: Record<string, string>;
}
