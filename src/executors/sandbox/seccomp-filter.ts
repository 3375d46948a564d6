// The seccomp filter of a sandbox without network: no unix socket can be created, so no socket on the host's
// filesystem (Docker, ssh-agent, D-Bus, …) answers, even one in a writable directory. A classic-BPF program that
// bubblewrap loads with `--seccomp FD` (seccomp(2), SECCOMP_SET_MODE_FILTER; `struct seccomp_data` in
// linux/seccomp.h). Abstract unix sockets need no filter: they are private to the sandbox's network namespace.

/** `struct seccomp_data`: `int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]` (little-endian hosts). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARG0_LOW_OFFSET = 16;
const ARG1_LOW_OFFSET = 24;

const BPF_LD_W_ABS = 0x20;
const BPF_ALU_AND_K = 0x54;
const BPF_JMP_JEQ_K = 0x15;
const BPF_RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff_0000;
const SECCOMP_RET_ERRNO = 0x0005_0000;
const EACCES = 13;
const ENOSYS = 38;

const AF_UNIX = 1;
const SOCK_TYPE_MASK = 0xf;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
/** x32 system calls are the x86-64 numbers with this bit set; masked off, the same numbers apply. */
const X32_SYSCALL_BIT = 0x4000_0000;

/** The system calls the filter looks at, for one ABI. `socketcall` hides its arguments, so it is refused whole. */
interface AbiCalls {
  arch: number;
  socket: number;
  socketpair: number;
  socketcall?: number;
}

interface HostAbis {
  native: AbiCalls;
  /** The 32-bit ABI the kernel also accepts on this host (int 0x80 on x86-64, AArch32 on arm64). */
  compat: AbiCalls;
  nativeMask?: number;
}

// io_uring can create and connect sockets without socket(2) (IORING_OP_SOCKET): refused as if the kernel lacked it,
// so programs fall back to plain system calls. Same numbers on every ABI here.
const IO_URING_CALLS = [425, 426, 427];

// Numbers from arch/x86/entry/syscalls/syscall_{64,32}.tbl, include/uapi/asm-generic/unistd.h and
// arch/arm/tools/syscall.tbl; architectures from include/uapi/linux/audit.h.
const HOSTS: Record<string, HostAbis> = {
  x64: {
    native: { arch: 0xc000_003e, socket: 41, socketpair: 53 },
    compat: { arch: 0x4000_0003, socket: 359, socketpair: 360, socketcall: 102 },
    nativeMask: ~X32_SYSCALL_BIT >>> 0,
  },
  arm64: {
    native: { arch: 0xc000_00b7, socket: 198, socketpair: 199 },
    compat: { arch: 0x4000_0028, socket: 281, socketpair: 288 },
  },
};

/** True when `seccompProgram` can build the filter for this processor architecture (`process.arch`). */
export function seccompSupported(arch: string): boolean {
  return arch in HOSTS;
}

type Target = string | number;
interface Instruction { code: number; k: number; jt?: Target; jf?: Target; label?: string }

/**
 * The filter for a host of architecture `arch` (`process.arch`): `socket(AF_UNIX, …)` fails with EACCES;
 * `socketpair(AF_UNIX, …)` is allowed for stream and seqpacket pairs (pipes between processes), refused for
 * datagram pairs (a datagram socket can be re-connected to a path); the 32-bit ABI's `socketcall` is refused whole;
 * io_uring fails with ENOSYS; every other call is allowed. A call from an ABI this host does not have is refused.
 */
export function seccompProgram(arch: string): Buffer {
  const host = HOSTS[arch];
  if (!host) throw new Error(`no seccomp filter for architecture ${arch}`);
  const deny = SECCOMP_RET_ERRNO | EACCES;
  const program: Instruction[] = [
    { code: BPF_LD_W_ABS, k: ARCH_OFFSET },
    { code: BPF_JMP_JEQ_K, k: host.native.arch, jt: "native" },
    { code: BPF_JMP_JEQ_K, k: host.compat.arch, jt: "compat" },
    { code: BPF_RET_K, k: deny },
    { label: "native", code: BPF_LD_W_ABS, k: NR_OFFSET },
    ...(host.nativeMask === undefined ? [] : [{ code: BPF_ALU_AND_K, k: host.nativeMask }]),
    ...dispatch(host.native),
    { label: "compat", code: BPF_LD_W_ABS, k: NR_OFFSET },
    ...(host.compat.socketcall === undefined ? [] : [{ code: BPF_JMP_JEQ_K, k: host.compat.socketcall, jt: "deny" }]),
    ...dispatch(host.compat),
    { label: "socket", code: BPF_LD_W_ABS, k: ARG0_LOW_OFFSET },
    { code: BPF_JMP_JEQ_K, k: AF_UNIX, jt: "deny", jf: "allow" },
    { label: "socketpair", code: BPF_LD_W_ABS, k: ARG0_LOW_OFFSET },
    { code: BPF_JMP_JEQ_K, k: AF_UNIX, jf: "allow" },
    { code: BPF_LD_W_ABS, k: ARG1_LOW_OFFSET },
    { code: BPF_ALU_AND_K, k: SOCK_TYPE_MASK },
    { code: BPF_JMP_JEQ_K, k: SOCK_STREAM, jt: "allow" },
    { code: BPF_JMP_JEQ_K, k: SOCK_SEQPACKET, jt: "allow", jf: "deny" },
    { label: "nosys", code: BPF_RET_K, k: SECCOMP_RET_ERRNO | ENOSYS },
    { label: "deny", code: BPF_RET_K, k: deny },
    { label: "allow", code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
  ];
  return assemble(program);
}

/** Jumps on the system-call number (in the accumulator) of one ABI; anything else is allowed. */
function dispatch(abi: AbiCalls): Instruction[] {
  return [
    { code: BPF_JMP_JEQ_K, k: abi.socket, jt: "socket" },
    { code: BPF_JMP_JEQ_K, k: abi.socketpair, jt: "socketpair" },
    ...IO_URING_CALLS.map((nr) => ({ code: BPF_JMP_JEQ_K, k: nr, jt: "nosys" })),
    { code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
  ];
}

/** `struct sock_filter` entries (u16 code, u8 jt, u8 jf, u32 k) with labels turned into forward offsets. */
function assemble(program: readonly Instruction[]): Buffer {
  const labels = new Map<string, number>();
  program.forEach((instruction, index) => instruction.label && labels.set(instruction.label, index));
  const offset = (from: number, target: Target | undefined): number => {
    if (target === undefined) return 0;
    const to = typeof target === "number" ? target : labels.get(target);
    if (to === undefined || to <= from || to - from - 1 > 0xff) throw new Error(`bad jump to ${String(target)}`);
    return to - from - 1;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    out.writeUInt16LE(instruction.code, index * 8);
    out.writeUInt8(offset(index, instruction.jt), index * 8 + 2);
    out.writeUInt8(offset(index, instruction.jf), index * 8 + 3);
    out.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return out;
}
