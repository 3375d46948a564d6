// The sandbox's seccomp program, run through a small classic-BPF interpreter: which system calls it refuses on
// each ABI of an x86-64 and an arm64 host. The real kernel's verdict is checked in test/security/sandbox.test.ts.
import { describe, expect, it } from "vitest";
import { seccompProgram, seccompSupported } from "../../src/executors/sandbox/seccomp-filter.js";

const ALLOW = 0x7fff_0000;
const EACCES = 0x0005_0000 | 13;
const ENOSYS = 0x0005_0000 | 38;
const X86_64 = 0xc000_003e;
const I386 = 0x4000_0003;
const AARCH64 = 0xc000_00b7;
const ARM = 0x4000_0028;
const X32 = 0x4000_0000;

/** Runs the program on one `struct seccomp_data` (nr, arch, args[0], args[1]); returns the action. */
function run(program: Buffer, nr: number, arch: number, arg0 = 0, arg1 = 0): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr | 0, 0);
  data.writeUInt32LE(arch, 4);
  data.writeBigUInt64LE(BigInt(arg0), 16);
  data.writeBigUInt64LE(BigInt(arg1), 24);
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; pc += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: accumulator = data.readUInt32LE(k); break;
      case 0x54: accumulator = (accumulator & k) >>> 0; break;
      case 0x15: pc += accumulator === k ? jt : jf; break;
      case 0x06: return k;
      default: throw new Error(`unexpected opcode ${code}`);
    }
  }
  throw new Error("the program fell off its end");
}

describe("seccompProgram", () => {
  const x64 = seccompProgram("x64");
  const arm64 = seccompProgram("arm64");
  const SOCK_STREAM = 1;
  const SOCK_DGRAM = 2;
  const SOCK_RAW = 3;
  const SOCK_SEQPACKET = 5;
  const SOCK_NONBLOCK_CLOEXEC = 0o4000 | 0o2000000;

  it.each<[string, Buffer, number, number, number, number, number]>([
    ["x86-64 socket(AF_UNIX) is refused", x64, 41, X86_64, 1, SOCK_STREAM, EACCES],
    ["x86-64 socket(AF_UNIX) with high bits set in the domain's upper half is still AF_UNIX", x64, 41, X86_64, 0x1_0000_0001, SOCK_STREAM, EACCES],
    ["x86-64 socket(AF_INET) is allowed", x64, 41, X86_64, 2, SOCK_STREAM, ALLOW],
    ["x86-64 socket(AF_INET6) is allowed", x64, 41, X86_64, 10, SOCK_DGRAM, ALLOW],
    ["x32 socket(AF_UNIX) is refused", x64, X32 | 41, X86_64, 1, SOCK_STREAM, EACCES],
    ["x86-64 socketpair(AF_UNIX, SOCK_STREAM|flags) is allowed", x64, 53, X86_64, 1, SOCK_STREAM | SOCK_NONBLOCK_CLOEXEC, ALLOW],
    ["x86-64 socketpair(AF_UNIX, SOCK_SEQPACKET) is allowed", x64, 53, X86_64, 1, SOCK_SEQPACKET, ALLOW],
    ["x86-64 socketpair(AF_UNIX, SOCK_DGRAM) is refused", x64, 53, X86_64, 1, SOCK_DGRAM, EACCES],
    ["x86-64 socketpair(AF_UNIX, SOCK_RAW), a datagram pair too, is refused", x64, 53, X86_64, 1, SOCK_RAW, EACCES],
    ["x32 socketpair(AF_UNIX, SOCK_DGRAM) is refused", x64, X32 | 53, X86_64, 1, SOCK_DGRAM, EACCES],
    ["x86-64 io_uring_setup fails as not implemented", x64, 425, X86_64, 0, 0, ENOSYS],
    ["x86-64 read is allowed", x64, 0, X86_64, 0, 0, ALLOW],
    ["x86-64 connect is allowed", x64, 42, X86_64, 3, 0, ALLOW],
    ["i386 socketcall is refused whole", x64, 102, I386, 1, 0, EACCES],
    ["i386 socket(AF_UNIX) is refused", x64, 359, I386, 1, SOCK_STREAM, EACCES],
    ["i386 socket(AF_INET) is allowed", x64, 359, I386, 2, SOCK_STREAM, ALLOW],
    ["i386 io_uring_setup fails as not implemented", x64, 425, I386, 0, 0, ENOSYS],
    ["i386 read is allowed", x64, 3, I386, 0, 0, ALLOW],
    ["a call of an ABI the host does not have is refused", x64, 0, AARCH64, 0, 0, EACCES],
    ["arm64 socket(AF_UNIX) is refused", arm64, 198, AARCH64, 1, SOCK_STREAM, EACCES],
    ["arm64 socket(AF_INET) is allowed", arm64, 198, AARCH64, 2, SOCK_STREAM, ALLOW],
    ["arm64 socketpair(AF_UNIX, SOCK_STREAM) is allowed", arm64, 199, AARCH64, 1, SOCK_STREAM, ALLOW],
    ["arm64 socketpair(AF_UNIX, SOCK_DGRAM) is refused", arm64, 199, AARCH64, 1, SOCK_DGRAM, EACCES],
    ["arm64 io_uring_enter fails as not implemented", arm64, 426, AARCH64, 0, 0, ENOSYS],
    ["arm64 number 41 (not socket there) is allowed", arm64, 41, AARCH64, 1, 0, ALLOW],
    ["AArch32 socket(AF_UNIX) is refused", arm64, 281, ARM, 1, SOCK_STREAM, EACCES],
    ["AArch32 socketpair(AF_UNIX, SOCK_DGRAM) is refused", arm64, 288, ARM, 1, SOCK_DGRAM, EACCES],
    ["AArch32 read is allowed", arm64, 3, ARM, 0, 0, ALLOW],
    ["a call of the x86-64 ABI on an arm64 host is refused", arm64, 0, X86_64, 0, 0, EACCES],
  ])("%s", (_title, program, nr, arch, arg0, arg1, action) => {
    expect(run(program, nr, arch, arg0, arg1).toString(16)).toBe(action.toString(16));
  });

  it("is a whole number of 8-byte instructions, well under the kernel's 4096", () => {
    for (const program of [x64, arm64]) {
      expect(program.length % 8).toBe(0);
      expect(program.length / 8).toBeLessThan(64);
    }
  });

  it("exists for x64 and arm64 only, and says so for other architectures", () => {
    expect(seccompSupported("x64")).toBe(true);
    expect(seccompSupported("arm64")).toBe(true);
    expect(seccompSupported("ia32")).toBe(false);
    expect(() => seccompProgram("riscv64")).toThrow("no seccomp filter for architecture riscv64");
  });
});
