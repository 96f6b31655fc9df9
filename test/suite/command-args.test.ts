import { afterEach, describe, expect, it, vi } from "vitest";
import {
  parseCommandArgs,
  parseFileCommand,
  refusalOf,
  settingsAndSpec,
} from "../../contract-tests/runner/command-args.ts";

const printed: string[] = [];
afterEach(() => void printed.splice(0));
const capture = () => vi.spyOn(console, "error").mockImplementation((line: string) => void printed.push(line));

describe("command-args", () => {
  it("refuses in one line on stderr, named after the command, with exit code 2", () => {
    capture();
    expect(refusalOf("tool replay")("no file")).toBe(2);
    expect(printed).toEqual(["tool replay: cannot start: no file"]);
  });

  it("parses flags and positionals, and refuses an unknown flag naming the command's --help", () => {
    capture();
    const refuse = refusalOf("tool pact check");
    const options = {
      "report-dir": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    } as const;
    const parsed = parseCommandArgs(["pact.json", "--report-dir", "out"], options, refuse, "tool pact --help");
    expect(parsed).toMatchObject({ positionals: ["pact.json"], values: { "report-dir": "out", help: false } });
    expect(parseCommandArgs(["--nope", "-x"], options, refuse, "tool pact --help")).toBe(2);
    expect(printed).toEqual([
      expect.stringMatching(/^tool pact check: cannot start: Unknown option '--nope'.* \(see tool pact --help\)$/),
    ]);
  });

  it("reads the settings and the spec, or refuses naming the setting that is wrong", () => {
    capture();
    const refuse = refusalOf("tool replay");
    const loaded = settingsAndSpec({}, refuse);
    expect(loaded).not.toBe(2);
    expect(settingsAndSpec({ FILE_LIBRARY_MAX_REQUESTS: "lots" }, refuse)).toBe(2);
    expect(printed).toEqual([expect.stringMatching(/^tool replay: cannot start: .*FILE_LIBRARY_MAX_REQUESTS/)]);
  });

  it("takes one file: its usage for --help (exit 0), a refusal for none or two, else the flags and the file", () => {
    const usage: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void usage.push(line));
    capture();
    const refuse = refusalOf("tool replay");
    const options = { "base-url": { type: "string" }, help: { type: "boolean", short: "h", default: false } } as const;
    const command = {
      help: "tool replay --help",
      usage: () => "Usage: tool replay FILE",
      wrongCount: (got: number) => `give one FILE, got ${got}`,
    };
    expect(parseFileCommand(["-h"], options, refuse, command)).toBe(0);
    expect(usage).toEqual(["Usage: tool replay FILE"]);
    expect(parseFileCommand([], options, refuse, command)).toBe(2);
    expect(parseFileCommand(["a.jsonl", "b.jsonl"], options, refuse, command)).toBe(2);
    expect(printed).toEqual([
      "tool replay: cannot start: give one FILE, got 0",
      "tool replay: cannot start: give one FILE, got 2",
    ]);
    expect(parseFileCommand(["a.jsonl", "--base-url", "http://x"], options, refuse, command)).toMatchObject({
      file: "a.jsonl",
      values: { "base-url": "http://x", help: false },
    });
  });
});
