import { describe, expect, it } from "vitest";
import { problemDetailsProblems } from "../../../contract-tests/checks/problem-details.ts";

describe("problemDetailsProblems: the members RFC 9457 defines", () => {
  it("accepts each member of its type, relative and absolute URI references alike, and extensions of any type", () => {
    expect(
      problemDetailsProblems(
        { type: "about:blank", title: "t", status: 422, detail: "d", instance: "/errors/1", code: 42 },
        422,
      ),
    ).toEqual([]);
    expect(problemDetailsProblems({ type: "https://errors.test/x#y", instance: "urn:uuid:7f3a" }, 401)).toEqual([]);
    expect(problemDetailsProblems({}, 401)).toEqual([]);
  });

  it("leaves a body that is no object to ErrorBody", () => {
    for (const body of [null, [1], "text", 3]) expect(problemDetailsProblems(body, 422)).toEqual([]);
  });

  it("names each member of a wrong type, with its section", () => {
    expect(
      problemDetailsProblems({ type: "a b", status: 422.5, title: null, detail: 1, instance: "%zz" }, 422),
    ).toEqual([
      '"type" is "a b", not a URI reference (§3.1.1)',
      `"status" is 422.5, not the answer's status as a number (422) (§3.1.2)`,
      '"title" is null, not a string (§3.1.3)',
      '"detail" is 1, not a string (§3.1.4)',
      '"instance" is "%zz", not a URI reference (§3.1.5)',
    ]);
  });

  it("quotes at most 80 characters of a value", () => {
    expect(problemDetailsProblems({ title: ["y".repeat(100)] }, 400)).toEqual([
      `"title" is ${JSON.stringify(["y".repeat(100)]).slice(0, 80)}, not a string (§3.1.3)`,
    ]);
  });
});
