import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { GROWING_LIST_LENGTHS, publicUrlForms } from "../../contract-tests/inputs/url-forms.ts";

describe("publicUrlForms: URLs that a parser would write back otherwise", () => {
  it("are five valid URLs with the file's id encoded, each named by the form a parser rewrites", () => {
    const forms = publicUrlForms("doc 1/é", 1700000000000);
    expect(forms).toEqual([
      {
        url: "HTTPS://CDN.Contract-Check.EXAMPLE.test/doc%201%2F%C3%A9?v=1700000000000",
        form: "an upper-case scheme and host",
      },
      { url: "https://contract-check.example.test", form: "no path (a parser adds /)" },
      { url: "https://contract-check.example.test:443/doc%201%2F%C3%A9", form: "the default port" },
      {
        url: "https://contract-check.example.test/caf%C3%A9/doc%201%2F%C3%A9?q=%E6%97%A5%20x",
        form: "percent-encoded non-ASCII",
      },
      {
        url: "https://contract-check.example.test/doc%201%2F%C3%A9?b=2&a=1&a=&empty#frag/ment?",
        form: "a query string and a fragment",
      },
    ]);
    // Each is a valid `format: uri`, as the spec's publicUrl declares, by the suite's own validator of the format.
    const uri = fullFormats.uri as (value: string) => boolean;
    for (const { url } of forms) expect(uri(url), url).toBe(true);
  });

  it("stamp the first with the time, so that each run sends a URL the file does not have yet", () => {
    const before = Date.now();
    const [first] = publicUrlForms("doc-1");
    const stamp = Number(new URL(first!.url).searchParams.get("v"));
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
  });

  it("come with the label lengths a write run climbs through, past the common limits", () => {
    // Each just past a limit servers commonly have: 100, 255 and 1,000 labels.
    expect(GROWING_LIST_LENGTHS.map((length, i) => length - [100, 255, 1_000][i]!)).toEqual([1, 1, 1]);
  });
});
