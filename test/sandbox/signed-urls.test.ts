// covers: sandbox/core/signed-urls.ts, sandbox/node-hmac.ts
import { describe, expect, it } from "vitest";
import { UrlSigner, webCryptoHmac, type Hmac } from "../../sandbox/core/signed-urls.ts";
import { nodeHmac } from "../../sandbox/node-hmac.ts";

describe.each([
  ["node:crypto", nodeHmac],
  ["WebCrypto", webCryptoHmac],
] as Array<[string, (secret: Uint8Array) => Hmac]>)("UrlSigner with %s's HMAC", (_, hmacOf) => {
  const secret = new TextEncoder().encode("s3cret");
  let now = Date.parse("2026-01-01T00:00:00Z");
  const signer = new UrlSigner(hmacOf(secret), 60, () => now);
  const parts = (url: string) => {
    const u = new URL(url);
    return [u.searchParams.get("expires"), u.searchParams.get("signature")] as const;
  };

  it("accepts its own URL until it expires, then calls it expired", async () => {
    const [expires, signature] = parts(await signer.sign("http://127.0.0.1:1", "f1"));
    expect(await signer.verify("f1", expires, signature)).toBe("valid");
    now += 59_000;
    expect(await signer.verify("f1", expires, signature)).toBe("valid");
    now += 1_000;
    expect(await signer.verify("f1", expires, signature)).toBe("expired");
  });

  it("refuses another id, another secret, and malformed parts", async () => {
    const [expires, signature] = parts(await signer.sign("http://127.0.0.1:1", "f1"));
    expect(await signer.verify("f2", expires, signature)).toBe("invalid");
    expect(
      await new UrlSigner(hmacOf(new TextEncoder().encode("other")), 60, () => now).verify("f1", expires, signature),
    ).toBe("invalid");
    expect(await signer.verify("f1", "abc", signature)).toBe("invalid");
    expect(await signer.verify("f1", expires, "zz")).toBe("invalid");
    expect(await signer.verify("f1", null, null)).toBe("invalid");
  });

  it("keeps (id, expiry) pairs unambiguous", async () => {
    const [expires, signature] = parts(await signer.sign("http://127.0.0.1:1", "f1"));
    expect(await signer.verify(`f1\n${expires}`, "", signature)).toBe("invalid");
  });

  it("has one spelling of each URL: an expiry with a leading zero is another URL, refused", async () => {
    const [expires, signature] = parts(await signer.sign("http://127.0.0.1:1", "f1"));
    expect(await signer.verify("f1", `0${expires}`, signature)).toBe("invalid");
    expect(await signer.verify("f1", `00${expires}`, signature)).toBe("invalid");
  });
});

it("signs alike with node:crypto's and WebCrypto's HMAC: a URL the sandbox signs, the fake's signer accepts", async () => {
  const secret = new TextEncoder().encode("shared");
  const now = () => Date.parse("2026-01-01T00:00:00Z");
  const url = new URL(await new UrlSigner(nodeHmac(secret), 60, now).sign("http://127.0.0.1:1", "f1"));
  expect(
    await new UrlSigner(webCryptoHmac(secret), 60, now).verify(
      "f1",
      url.searchParams.get("expires"),
      url.searchParams.get("signature"),
    ),
  ).toBe("valid");
});
