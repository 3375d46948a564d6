import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveSessionName, truncateMiddle } from "../../src/engine/session-name.js";

describe("deriveSessionName pins (NAME-05)", () => {
  it.each<[string, string | undefined]>([
    ["npm run build", "npm run"],
    ["git -C repo status", "git repo"],
    ["ls -la /tmp", "ls /tmp"],
    ['python3 -u "my script.py" --x', "python3 my script.py"],
    ["cd foo && make", "cd foo"],
    ["echo start; sleep 1.5; echo done", "echo start;"],
    ["FOO=1 node app.js", "FOO=1 node"],
    ["kill -9 $$", "kill $$"],
    ["seq 1 2000", "seq 1"],
    ["echo hello", "echo hello"],
    ["echo", "echo"],
    ["", undefined],
    ["   \t\n ", undefined],
  ])("names %j as %j", (command, expected) => {
    expect(deriveSessionName(command)).toBe(expected);
  });
});

describe("deriveSessionName tokenization (NAME-02, NAME-03)", () => {
  it.each<[string, string | undefined]>([
    ["ls -la -h", "ls -la"],
    ["printf 'Name? '; read -r name; echo \"hi $name\"", "printf 'Name? ';"],
    ["  printf   'Name? ';  read -r name", "printf 'Name? ';"],
    ["echo tick; sleep 60", "echo tick;"],
    ["echo 'a b'c", "echo 'a b'c"],
    ['echo a"b c"d', 'echo a"b c"d'],
    ['echo "say \\"hi there\\""', 'echo say \\"hi there\\"'],
    ["echo 'it\\' s'", "echo it\\"],
    ['echo "unterminated quote here', "echo unterminated"],
    ["echo '' -n", "echo -n"],
    ['"" echo', "echo"],
    ["'my tool' --flag arg", "my tool arg"],
    ["'\"' x", '" x'],
    ["cmd 'x\"", "cmd x"],
    ["echo \"'x'\"", "echo x"],
  ])("names %j as %j", (command, expected) => {
    expect(deriveSessionName(command)).toBe(expected);
  });

  it("truncates a long target in the middle to 48 characters", () => {
    const target = `/very/long/${"d".repeat(60)}/file.txt`;
    const name = deriveSessionName(`cat ${target}`);
    expect(name).toBe(`cat ${target.slice(0, 22)}...${target.slice(-22)}`);
    expect(name?.length).toBe("cat ".length + 47);
  });

  it("never truncates the verb", () => {
    const verb = "x".repeat(100);
    expect(deriveSessionName(verb)).toBe(verb);
  });
});

describe("truncateMiddle (NAME-04)", () => {
  it.each<[string, number, string]>([
    ["short", 10, "short"],
    ["exactly10!", 10, "exactly10!"],
    ["0123456789A", 10, "012...89A"],
    ["abcdefghijklmnopqrstuvwxyz", 9, "abc...xyz"],
    ["abcdef", 4, "..."],
    ["abcdef", 3, "..."],
    ["abcdef", 0, "..."],
  ])("truncates %j to max %d as %j", (input, max, expected) => {
    expect(truncateMiddle(input, max)).toBe(expected);
  });

  it("keeps 47 characters of a long string for max 48", () => {
    expect(truncateMiddle("x".repeat(100), 48)).toHaveLength(47);
  });

  it("returns the input when short enough, else both ends around the ellipsis", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 3, max: 200 }), (s, max) => {
        const out = truncateMiddle(s, max);
        if (s.length <= max) return out === s;
        const keep = Math.floor((max - 3) / 2);
        return out.length <= max && out === s.slice(0, keep) + "..." + s.slice(s.length - keep);
      }),
    );
  });
});
