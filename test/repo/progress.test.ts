// covers: bench/lib/progress.ts, bench/lib/rounds.ts
// What `npm run bench` says while it works, read from what it writes to stderr (not a terminal here: a line each).
import { afterEach, describe, expect, it, vi } from "vitest";
import { announcePlan, count, inSection } from "../../bench/lib/progress.ts";
import { interleaved } from "../../bench/lib/rounds.ts";

const written = () =>
  vi
    .mocked(process.stderr.write)
    .mock.calls.map(([chunk]) => String(chunk))
    .join("");
afterEach(() => vi.restoreAllMocks());

describe("the bench's plan and progress", () => {
  it("prints the plan: the start, each section with about how long it takes, and the sum", () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    announcePlan(10, [
      { name: "client-overhead", about: 210 },
      { name: "client-size", about: 1 },
    ]);
    expect(written()).toBe(
      [
        "bench: the plan, about 4 min in all on 2 cores (longer on a loaded or slower machine):",
        "bench:   start                about 10 s (the spec's bundle, the benchmarks' modules)",
        "bench:   client-overhead      about 4 min",
        "bench:   client-size          about 1 s",
        "",
      ].join("\n"),
    );
  });

  it("says when a section starts and ends, and counts its rounds in between, a line each off a terminal", async () => {
    expect(process.stderr.isTTY).toBeFalsy();
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    count(1, 2); // outside a section: nothing
    const samples = await inSection("demo", 2, 3, () =>
      interleaved([{ name: "a" }, { name: "b" }], 2, async (v) => v.name),
    );
    expect(samples.get("a")).toEqual(["a", "a"]);
    expect(written()).toMatch(
      /^bench: \[2\/3\] demo started\nbench: {3}demo: round 1 of 2\nbench: {3}demo: round 2 of 2\nbench: \[2\/3\] demo took 0 s\n$/,
    );
  });

  it("ends a section with its line when it fails too", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await expect(inSection("broken", 1, 1, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(written()).toMatch(/bench: \[1\/1\] broken took 0 s\n$/);
  });
});
