import { constantTimeEqual } from "./constant-time.ts";

/** The path under which signed download URLs serve file contents; outside the API's own paths. */
export const CONTENT_PATH_PREFIX = "/sandbox/content/";

/** Why a signed URL was refused. */
export type SignatureCheck = "valid" | "expired" | "invalid";

/** HMAC-SHA256 of a text with the signing secret, as lower-case hex. */
export type Hmac = (text: string) => string | Promise<string>;

const toHex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * HMAC-SHA256 through WebCrypto: in every runtime, asynchronous. (The sandbox's node:http adapter passes
 * node:crypto's, which is several times faster for one short text.)
 */
export function webCryptoHmac(secret: Uint8Array): Hmac {
  const key = crypto.subtle.importKey(
    "raw",
    secret as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return async (text) => toHex(await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(text)));
}

const SIGNATURES_KEPT = 1_000;

/** Makes and checks download URLs signed with HMAC-SHA256 over the file id and the expiry time. */
export class UrlSigner {
  constructor(
    private readonly hmac: Hmac,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An absolute URL on `baseUrl` that serves the file's contents until it expires. */
  async sign(baseUrl: string, fileId: string): Promise<string> {
    const expires = Math.floor(this.now() / 1000) + this.ttlSeconds;
    // Both are digits or hex: nothing in them needs encoding.
    return `${baseUrl}${CONTENT_PATH_PREFIX}${encodeURIComponent(fileId)}?expires=${expires}&signature=${await this.signature(fileId, expires)}`;
  }

  /**
   * Checks a URL's expiry and signature (in constant time). Only the spelling `sign` makes is valid: an expiry with a
   * leading zero is another URL, refused, so that each signed URL has one form.
   */
  async verify(fileId: string, expires: string | null, signature: string | null): Promise<SignatureCheck> {
    if (!expires || !signature || !/^[1-9]\d{0,11}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature))
      return "invalid";
    if (!constantTimeEqual(signature, await this.signature(fileId, Number(expires)))) return "invalid";
    // The expiry is checked after the signature, so that a forged expiry is "invalid", not "expired".
    return Number(expires) * 1000 <= this.now() ? "expired" : "valid";
  }

  // The signatures of the current second's expiry: every URL asked for within one second expires at the same time,
  // and a signature depends on nothing else, so one HMAC serves them all (the sandbox's download is its hottest path).
  private signed = new Map<string, string | Promise<string>>();
  private signedFor = 0;

  private signature(fileId: string, expires: number): string | Promise<string> {
    if (expires !== this.signedFor || this.signed.size >= SIGNATURES_KEPT) {
      this.signed = new Map();
      this.signedFor = expires;
    }
    // A separator that cannot occur in the decimal expiry keeps (id, expiry) pairs unambiguous.
    const text = `${fileId}\n${expires}`;
    let signature = this.signed.get(text);
    if (signature === undefined) this.signed.set(text, (signature = this.hmac(text)));
    return signature;
  }
}
