/**
 * publicUrl values in the forms that URL parsers and frameworks rewrite when they store a URL as an object and write
 * it back: each is a valid `format: uri` and must read back exactly as sent. `new URL(x).href` lower-cases the
 * scheme and host, adds the `/` of an empty path, drops a default port and percent-encodes what it may.
 */
export function publicUrlForms(fileId: string, now = Date.now()): Array<{ url: string; form: string }> {
  const id = encodeURIComponent(fileId);
  return [
    { url: `HTTPS://CDN.Contract-Check.EXAMPLE.test/${id}?v=${now}`, form: "an upper-case scheme and host" },
    { url: `https://contract-check.example.test`, form: "no path (a parser adds /)" },
    { url: `https://contract-check.example.test:443/${id}`, form: "the default port" },
    { url: `https://contract-check.example.test/caf%C3%A9/${id}?q=%E6%97%A5%20x`, form: "percent-encoded non-ASCII" },
    {
      url: `https://contract-check.example.test/${id}?b=2&a=1&a=&empty#frag/ment?`,
      form: "a query string and a fragment",
    },
  ];
}

/** Label lengths a write run climbs through, each read back whole: past common limits (100, 255, 1000), until the server refuses one with 422. */
export const GROWING_LIST_LENGTHS = [101, 256, 1_001] as const;
