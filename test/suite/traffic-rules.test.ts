import { describe, expect, it } from "vitest";
import { TrafficRules } from "../../contract-tests/proxy/traffic-rules.ts";
import { metadataOf } from "../support/exchange-builder.ts";

type Read = Parameters<TrafficRules["read"]>[1];

/** A getFile 200 from `at` to `to` (ms), with the metadata the file had then. */
const got = (at: number, to: number, fields: Record<string, unknown> = {}): Read => ({
  operation: "getFile",
  startedAt: at,
  endedAt: to,
  exists: true,
  metadata: metadataOf(fields),
});
/** A read that found the file (200) or not (422), without metadata (a download, say). */
const saw = (at: number, to: number, exists: boolean, operation = "getFileDownloadUrl"): Read => ({
  operation,
  startedAt: at,
  endedAt: to,
  exists,
  metadata: undefined,
});

/** An update of `fileId` from `at` to `to`, answered `status` (undefined: no answer), having sent `sent`. */
function update(
  rules: TrafficRules,
  at: number,
  to: number | undefined,
  status: number | undefined,
  sent: unknown,
  fileId = "doc-1",
): void {
  const handle = rules.updateStarted(fileId, at);
  if (to !== undefined) rules.updateEnded(handle, to, status, sent);
}

const checks = (findings: ReturnType<TrafficRules["read"]>) => findings.map((f) => f.check);

describe("update_persisted across exchanges: an accepted update shows in every read that starts after it ended", () => {
  it("finds a later read that does not show the labels sent, on the update's side", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    expect(rules.read("doc-1", got(2, 3, { labels: ["b"] }))).toEqual([
      {
        operation: "updateFile",
        check: "update_persisted",
        problem: 'after sending labels ["a"], getFile shows ["b"] (file "doc-1", no other update between)',
      },
    ]);
  });

  it("passes a read that shows them", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 204, { labels: ["a"] });
    expect(rules.read("doc-1", got(2, 3, { labels: ["a"] }))).toEqual([]);
  });

  it("treats only a 2xx as accepted: a refused update is not expected to show", () => {
    for (const status of [199, 300, 400, 422, 500]) {
      const rules = new TrafficRules();
      update(rules, 0, 1, status, { labels: ["a"] });
      expect(rules.read("doc-1", got(2, 3)), `HTTP ${status}`).toEqual([]);
    }
    for (const status of [200, 299]) {
      const rules = new TrafficRules();
      update(rules, 0, 1, status, { labels: ["a"] });
      expect(checks(rules.read("doc-1", got(2, 3))), `HTTP ${status}`).toEqual(["update_persisted"]);
    }
  });

  it("finds a publicUrl ignored or cut, and compares no labels after an update of publicUrl alone", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { publicUrl: "https://cdn.test/long-url" });
    expect(rules.read("doc-1", got(2, 3, { labels: ["other"], publicUrl: "https://cdn.test/long-url" }))).toEqual([]);
    expect(rules.read("doc-1", got(4, 5, { publicUrl: "https://cdn.test/long" }))).toEqual([
      {
        operation: "updateFile",
        check: "update_persisted",
        problem:
          'after sending publicUrl "https://cdn.test/long-url", getFile shows "https://cdn.test/long" (file "doc-1", no other update between)',
      },
    ]);
  });

  it("keeps only the print of what an update sent, and judges only that: labels alone, or publicUrl alone", () => {
    const labelsOnly = new TrafficRules();
    const handle = labelsOnly.updateStarted("doc-1", 0);
    labelsOnly.updateEnded(handle, 1, 200, { labels: ["a"], size: 9 });
    expect(handle.sent).toEqual({
      labels: '["a"]',
      labelsSorted: expect.stringMatching(/^[0-9a-f]{16}$/),
      labelsUnique: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(labelsOnly.read("doc-1", got(2, 3, { labels: ["a"], publicUrl: "https://cdn.test/other" }))).toEqual([]);
    const urlOnly = new TrafficRules();
    update(urlOnly, 0, 1, 200, { publicUrl: "https://cdn.test/a" });
    // A read whose metadata shows no publicUrl cannot show it ignored.
    expect(urlOnly.read("doc-1", got(2, 3))).toEqual([]);
  });

  it("judges nothing an update sent that is no object, and no read without metadata", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, ["a"]);
    expect(rules.read("doc-1", got(2, 3, { labels: ["b"] }))).toEqual([]);
    update(rules, 4, 5, 200, null);
    expect(rules.read("doc-1", got(6, 7, { labels: ["b"] }))).toEqual([]);
    update(rules, 6, 7, 200, undefined);
    expect(rules.read("doc-1", got(8, 9, { labels: ["b"] }))).toEqual([]);
    update(rules, 6, 7, 200, "labels");
    expect(rules.read("doc-1", got(8, 9, { labels: ["b"] }))).toEqual([]);
    update(rules, 8, 9, 200, { labels: ["a"] });
    expect(rules.read("doc-1", saw(10, 11, true))).toEqual([]);
  });

  it("holds the read to the latest accepted update, and an earlier one that ended before it is no 'between'", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    expect(rules.read("doc-1", got(2, 3, { labels: ["a"] }))).toEqual([]);
    update(rules, 4, 5, 200, { labels: ["b"] });
    expect(rules.read("doc-1", got(6, 7, { labels: ["b"] }))).toEqual([]);
    // The file's second update: the first, long over, does not excuse the read.
    expect(rules.read("doc-1", got(8, 9, { labels: ["a"] }))).toEqual([
      {
        operation: "updateFile",
        check: "update_persisted",
        problem: 'after sending labels ["b"], getFile shows ["a"] (file "doc-1", no other update between)',
      },
    ]);
  });

  it("keeps a refused update out of 'the latest accepted', yet counts it as one that came between", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    update(rules, 2, 3, 422, { labels: 7 });
    expect(rules.read("doc-1", got(4, 5, { labels: ["old"] }))).toEqual([]);
  });

  // The read [10, 20] against an update accepted at [0, 1] and a second one at [from, to], refused (so that the first
  // stays the latest accepted) or in flight (to undefined).
  it.each([
    ["ended before the first began", -5, -2, true],
    ["ended as the first began", -5, 0, true],
    ["overlaps the first", 0.5, 2, false],
    ["lies between them", 3, 4, false],
    ["overlaps the read", 15, 25, false],
    ["starts after the read ended", 21, 22, true],
    ["starts as the read ends", 20, 22, true],
    ["is still in flight, started before the read ended", 5, undefined, false],
    ["is still in flight, started after the read ended", 21, undefined, true],
  ] as const)("a second update that %s: judged %s", (_, from, to, judged) => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    update(rules, from, to, to === undefined ? undefined : 422, { labels: ["c"] });
    expect(checks(rules.read("doc-1", got(10, 20, { labels: ["old"] })))).toEqual(judged ? ["update_persisted"] : []);
  });

  it("counts an update that got no answer as one that came between", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    update(rules, 2, 3, undefined, undefined);
    expect(rules.read("doc-1", got(4, 5, { labels: ["old"] }))).toEqual([]);
  });

  // An update at [10, 20] and a read from `from` to `to`.
  it.each([
    ["ends before the update began", 0, 5, false],
    ["overlaps its start", 5, 15, false],
    ["lies within it", 12, 18, false],
    ["spans it", 5, 25, false],
    ["overlaps its end", 15, 25, false],
    ["starts as it ends", 20, 25, false],
    ["starts after it ended", 20.5, 25, true],
  ] as const)("a read that %s: judged %s", (_, from, to, judged) => {
    const rules = new TrafficRules();
    update(rules, 10, 20, 200, { labels: ["a"] });
    expect(checks(rules.read("doc-1", got(from, to, { labels: ["old"] })))).toEqual(judged ? ["update_persisted"] : []);
  });

  it("keeps the last 32 updates of a file: an older one in flight no longer counts", () => {
    const withUpdates = (count: number) => {
      const rules = new TrafficRules();
      update(rules, 0, undefined, undefined, undefined);
      for (let i = 1; i <= count; i++) update(rules, i * 10, i * 10 + 1, 200, { labels: [`l${i}`] });
      return checks(rules.read("doc-1", got(1_000, 1_001, { labels: ["old"] })));
    };
    expect(withUpdates(31)).toEqual([]);
    expect(withUpdates(32)).toEqual(["update_persisted"]);
  });

  it("keeps each file's updates apart", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    update(rules, 2, undefined, undefined, undefined, "doc-2");
    expect(checks(rules.read("doc-1", got(3, 4, { labels: ["old"] })))).toEqual(["update_persisted"]);
    expect(rules.read("doc-2", got(5, 6, { id: "doc-2" }))).toEqual([]);
  });
});

describe("file_existence_consistent: a file does not come and go without an update", () => {
  it("finds 200 then 422 with no update between, naming both reads", () => {
    const rules = new TrafficRules();
    expect(rules.read("doc-1", saw(0, 1, true, "getFile"))).toEqual([]);
    expect(rules.read("doc-1", saw(2, 3, false))).toEqual([
      {
        operation: "getFileDownloadUrl",
        check: "file_existence_consistent",
        problem:
          '"doc-1" answered 200 (the file exists) to getFile, then 422 (no such file) to getFileDownloadUrl, with no update of it between',
      },
    ]);
  });

  it("finds 422 then 200 too", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", saw(0, 1, false));
    expect(rules.read("doc-1", saw(2, 3, true, "getFile"))[0]?.problem).toBe(
      '"doc-1" answered 422 (no such file) to getFileDownloadUrl, then 200 (the file exists) to getFile, with no update of it between',
    );
  });

  it("passes reads that agree", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", saw(0, 1, false));
    expect(rules.read("doc-1", saw(2, 3, false))).toEqual([]);
  });

  it("compares only reads that did not overlap", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", saw(0, 2, true));
    expect(rules.read("doc-1", saw(2, 3, false))).toEqual([]);
  });

  // Reads at [0, 1] and [10, 11]; an update at [from, to], whatever its answer.
  it.each([
    ["before the first read", -5, -1, 200, true],
    ["overlapping the first read", -1, 0.5, 422, false],
    ["between them, refused", 3, 4, 422, false],
    ["between them, unanswered", 3, 4, undefined, false],
    ["overlapping the second read", 10.5, 12, 200, false],
    ["after the second read", 12, 13, 200, true],
  ] as const)("an update %s: judged %s", (_, from, to, status, judged) => {
    const rules = new TrafficRules();
    update(rules, from, to, status, {});
    rules.read("doc-1", saw(0, 1, true));
    expect(checks(rules.read("doc-1", saw(10, 11, false)))).toEqual(judged ? ["file_existence_consistent"] : []);
  });

  it("compares a read with the read that ended last before it, not with one that overlapped it", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", saw(0, 10, true));
    expect(rules.read("doc-1", saw(2, 3, false))).toEqual([]);
    expect(checks(rules.read("doc-1", saw(11, 12, false)))).toEqual(["file_existence_consistent"]);
  });

  it("takes a read that ended at the same time as the last one as the last", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", saw(0, 10, true));
    rules.read("doc-1", saw(5, 10, false));
    expect(rules.read("doc-1", saw(11, 12, false))).toEqual([]);
  });
});

describe("update_changes_only_its_fields between two reads", () => {
  it("finds a field other than labels and publicUrl that changed, naming it with both values", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1));
    expect(rules.read("doc-1", got(2, 3, { size: 0, labels: ["x"], publicUrl: "u" }))).toEqual([
      {
        operation: "getFile",
        check: "update_changes_only_its_fields",
        problem: 'between two reads of "doc-1": size from 1234 to 0',
      },
    ]);
    expect(rules.read("doc-1", got(4, 5, { name: "b.pdf", size: 1 }))[0]?.problem).toBe(
      'between two reads of "doc-1": name from "report.pdf" to "b.pdf", size from 0 to 1',
    );
  });

  it("passes changes of labels and publicUrl, and compares no reads that overlapped", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 2));
    expect(rules.read("doc-1", got(1, 3, { size: 0 }))).toEqual([]);
    expect(rules.read("doc-1", got(3, 4, { size: 1 }))).toEqual([]);
    expect(rules.read("doc-1", got(5, 6, { size: 1, labels: [] }))).toEqual([]);
  });

  it("compares with the metadata read last, not with a read that overlapped it, nor with a read without metadata", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 10));
    rules.read("doc-1", got(2, 3, { size: 0 }));
    rules.read("doc-1", saw(11, 12, true));
    expect(checks(rules.read("doc-1", got(13, 14, { size: 0 })))).toEqual(["update_changes_only_its_fields"]);
    const same = new TrafficRules();
    same.read("doc-1", got(0, 10));
    same.read("doc-1", got(5, 10, { size: 0 }));
    expect(same.read("doc-1", got(11, 12, { size: 0 }))).toEqual([]);
  });
});

describe("the files the rules remember", () => {
  it("keeps each file's history however many others are touched, up to 10,000 files", () => {
    const rules = new TrafficRules();
    rules.read("doc-0", saw(0, 1, true));
    for (let i = 1; i < 10_000; i++) rules.read(`doc-${i}`, saw(2, 3, true));
    expect(checks(rules.read("doc-0", saw(4, 5, false)))).toEqual(["file_existence_consistent"]);
  });

  it("forgets the file touched first when the 10,001st comes, and only that one", () => {
    const rules = new TrafficRules();
    for (let i = 0; i < 10_000; i++) rules.read(`doc-${i}`, saw(0, 1, true));
    rules.read("doc-new", saw(2, 3, true));
    expect(checks(rules.read("doc-1", saw(4, 5, false)))).toEqual(["file_existence_consistent"]);
    expect(rules.read("doc-0", saw(4, 5, false))).toEqual([]);
  });

  it("remembers updates of a file as well as its reads", () => {
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] });
    rules.read("doc-2", saw(2, 3, true));
    expect(checks(rules.read("doc-1", got(4, 5, { labels: ["old"] })))).toEqual(["update_persisted"]);
  });
});

describe("what the rules keep of a body: prints, never the body", () => {
  const big = ["a", "x".repeat(1_000_000)];

  it("keeps an accepted update's labels of 1 MB as a print of under 200 characters, and still tells them apart", () => {
    const rules = new TrafficRules();
    const handle = rules.updateStarted("doc-1", 0);
    rules.updateEnded(handle, 1, 200, { labels: big, publicUrl: "https://cdn.test/a" });
    expect(JSON.stringify(handle.sent).length).toBeLessThan(300);
    expect(rules.read("doc-1", got(2, 3, { labels: big, publicUrl: "https://cdn.test/a" }))).toEqual([]);
    // Equal in their first 100 characters and in length: only the digest tells them apart.
    const [finding] = rules.read(
      "doc-1",
      got(4, 5, { labels: ["a", `${"x".repeat(999_999)}y`], publicUrl: "https://cdn.test/a" }),
    );
    expect(finding!.problem).toMatch(
      /^after sending labels \["a","x{94}… \(sha256 [0-9a-f]{16}\), getFile shows \["a","x{94}… \(sha256 [0-9a-f]{16}\) \(file "doc-1", no other update between\)$/,
    );
    const digests = finding!.problem.match(/sha256 [0-9a-f]{16}/g)!;
    expect(digests[0]).not.toBe(digests[1]);
  });

  it("keeps nothing a refused update sent, nor one whose outcome is unknown", () => {
    const rules = new TrafficRules();
    for (const status of [422, 400, 500, undefined]) {
      const handle = rules.updateStarted("doc-1", 0);
      rules.updateEnded(handle, 1, status, { labels: big });
      expect(handle.sent, `HTTP ${status}`).toBeUndefined();
    }
  });

  it("compares a read's fields by print: a field of 1 MB that changed in its last character is found", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, { name: "x".repeat(1_000_000) }));
    const [finding] = rules.read("doc-1", got(2, 3, { name: `${"x".repeat(999_999)}y` }));
    expect(finding!.check).toBe("update_changes_only_its_fields");
    expect(finding!.problem.length).toBeLessThan(400);
  });

  it("compares the fields past the 32nd as one print: a change among them is still found", () => {
    const many = (last: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra${i}`, i === 39 ? last : i]));
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, many(1)));
    expect(rules.read("doc-1", got(2, 3, many(1)))).toEqual([]);
    const [finding] = rules.read("doc-1", got(4, 5, many(2)));
    expect(finding!.problem).toContain("(the other fields) from ");
  });

  it("compares up to 32 fields one by one, and says when the other fields appear or go", () => {
    // metadataOf shows 4 fields no update may change (id, name, size, created_at): 28 more make 32, 29 make 33.
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra${i}`, i]));
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, fields(28)));
    expect(rules.read("doc-1", got(2, 3, fields(28)))).toEqual([]);
    expect(rules.read("doc-1", got(4, 5, fields(29)))[0]?.problem).toBe(
      'between two reads of "doc-1": (the other fields) from undefined to [["extra28",28]]',
    );
    expect(rules.read("doc-1", got(6, 7, fields(28)))[0]?.problem).toBe(
      'between two reads of "doc-1": (the other fields) from [["extra28",28]] to undefined',
    );
  });

  it("names only the other fields, as a print of what they are, when one of them changed", () => {
    const many = (last: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra${i}`, i === 39 ? last : i]));
    const others = (last: number) =>
      JSON.stringify(Object.entries(many(last)).slice(28))
        .slice(0, 100)
        .replace(/[[\]]/g, "\\$&");
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, many(1)));
    const [finding, ...more] = rules.read("doc-1", got(2, 3, many(2)));
    expect(more).toEqual([]);
    expect(finding!.problem).toMatch(
      new RegExp(
        `^between two reads of "doc-1": \\(the other fields\\) from ${others(1)}… \\(sha256 [0-9a-f]{16}\\) to ${others(2)}… \\(sha256 [0-9a-f]{16}\\)$`,
      ),
    );
  });
});

describe("the rules across exchanges and what the service's own clients and documents do (issue 53)", () => {
  it("takes labels or publicUrl sent as null as not sent: no read is expected to show null", () => {
    const rules = new TrafficRules();
    // The official TypeScript SDK sends null for a field given as null; the Python SDK (1.0.0 to 2.2.4) publicUrl: null with labels.
    update(rules, 0, 1, 200, { fileId: "doc-1", labels: null, publicUrl: null });
    expect(rules.read("doc-1", got(2, 3, { labels: ["q3"], publicUrl: "https://cdn.test/a" }))).toEqual([]);
    update(rules, 4, 5, 200, { labels: ["a"], publicUrl: null });
    expect(rules.read("doc-1", got(6, 7, { labels: ["a"], publicUrl: "https://cdn.test/a" }))).toEqual([]);
    update(rules, 8, 9, 200, { labels: null, publicUrl: "www.example.com" });
    expect(rules.read("doc-1", got(10, 11, { labels: ["q3"], publicUrl: "www.example.com" }))).toEqual([]);
    // A value sent is still held to: null is "not sent" only where it was sent.
    expect(checks(rules.read("doc-1", got(12, 13, { labels: ["q3"], publicUrl: null })))).toEqual(["update_persisted"]);
  });

  it.each([
    "lastUpdated",
    "updatedAt",
    "updated_at",
    "lastModified",
    "last_modified",
    "modifiedAt",
    "modified_at",
    "last_updated",
  ])("lets a modification date, %s, change between two reads", (name) => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, { [name]: "2026-01-02" }));
    expect(rules.read("doc-1", got(2, 3, { [name]: "2026-01-03" }))).toEqual([]);
  });

  it("still finds any other member that changed beside a modification date", () => {
    const rules = new TrafficRules();
    rules.read("doc-1", got(0, 1, { lastUpdated: "2026-01-02", creationDate: "2026-01-01", updated: "a" }));
    expect(
      rules.read("doc-1", got(2, 3, { lastUpdated: "2026-01-03", creationDate: "2026-01-02", updated: "b" })),
    ).toEqual([
      {
        operation: "getFile",
        check: "update_changes_only_its_fields",
        problem:
          'between two reads of "doc-1": creationDate from "2026-01-01" to "2026-01-02", updated from "a" to "b"',
      },
    ]);
  });

  it("takes a UUID in another letter case as the same file (RFC 9562), and any other id as it is spelt", () => {
    const id = "3f2a8c1e-5b7d-4e9f-a1c2-0d4b6e8f1a3c";
    const rules = new TrafficRules();
    update(rules, 0, 1, 200, { labels: ["a"] }, id.toUpperCase());
    expect(checks(rules.read(id, got(2, 3, { labels: ["b"] })))).toEqual(["update_persisted"]);
    // Another spelling of the UUID may be served or refused with 422: both are correct, so no existence is compared
    // across spellings; within one spelling it is.
    rules.read(id.toUpperCase(), saw(4, 5, true));
    expect(rules.read("3F2A8C1E-5b7d-4E9F-a1c2-0D4B6E8F1A3C", saw(6, 7, false))).toEqual([]);
    rules.read(id, saw(8, 9, true));
    expect(rules.read(id, saw(10, 11, false))).toEqual([
      {
        operation: "getFileDownloadUrl",
        check: "file_existence_consistent",
        problem: `${JSON.stringify(id)} answered 200 (the file exists) to getFileDownloadUrl, then 422 (no such file) to getFileDownloadUrl, with no update of it between`,
      },
    ]);
    const named = new TrafficRules();
    named.read("Doc-1", saw(0, 1, true));
    expect(named.read("doc-1", saw(2, 3, false))).toEqual([]);
  });

  it("warns, and does not fail, when labels read back in another order or with duplicates collapsed", () => {
    const reordered = new TrafficRules();
    update(reordered, 0, 1, 200, { labels: ["b", "a", "c"] });
    expect(reordered.read("doc-1", got(2, 3, { labels: ["a", "b", "c"] }))).toEqual([
      {
        operation: "updateFile",
        check: "update_persisted",
        problem:
          'after sending labels ["b","a","c"], getFile shows ["a","b","c"]: the same labels, in another order or with duplicates collapsed (file "doc-1", no other update between)',
        warning: true,
      },
    ]);
    const collapsed = new TrafficRules();
    update(collapsed, 0, 1, 200, { labels: ["a", "b", "a"] });
    expect(collapsed.read("doc-1", got(2, 3, { labels: ["b", "a"] }))).toEqual([
      expect.objectContaining({ check: "update_persisted", warning: true }),
    ]);
    const both = new TrafficRules();
    update(both, 0, 1, 200, { labels: ["a", "b", "a"] });
    expect(both.read("doc-1", got(2, 3, { labels: ["b", "a", "a"] }))).toEqual([
      expect.objectContaining({ warning: true }),
    ]);
  });

  it("still fails any other change of the labels, and a publicUrl lost beside reordered labels", () => {
    const cases: Array<[sent: unknown[], shown: unknown]> = [
      [["a", "b"], ["a"]],
      [
        ["a", "b"],
        ["a", "b", "c"],
      ],
      [
        ["a", "b"],
        ["a", "a", "b"],
      ],
      [
        ["a", "b"],
        ["A", "b"],
      ],
      [["a,b"], ["a", "b"]],
      [["a", "b"], "a,b"],
      [["a"], null],
      // Not a list of strings: no set to compare, so a reorder of it is a change.
      [
        ["a", 1],
        [1, "a"],
      ],
    ];
    for (const [sent, shown] of cases) {
      const rules = new TrafficRules();
      update(rules, 0, 1, 200, { labels: sent });
      const found = rules.read("doc-1", got(2, 3, { labels: shown }));
      expect(found, JSON.stringify([sent, shown])).toEqual([expect.objectContaining({ check: "update_persisted" })]);
      expect(found[0]!.warning, JSON.stringify([sent, shown])).toBeUndefined();
    }
    const url = new TrafficRules();
    update(url, 0, 1, 200, { labels: ["b", "a"], publicUrl: "https://cdn.test/a" });
    expect(url.read("doc-1", got(2, 3, { labels: ["a", "b"], publicUrl: "https://cdn.test/b" }))).toEqual([
      {
        operation: "updateFile",
        check: "update_persisted",
        problem:
          'after sending publicUrl "https://cdn.test/a", getFile shows "https://cdn.test/b" (file "doc-1", no other update between)',
      },
    ]);
  });
});
