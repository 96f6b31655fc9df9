import { createHmac, timingSafeEqual } from "node:crypto";

/** The path under which signed download URLs serve file contents; outside the API's own paths. */
export const CONTENT_PATH_PREFIX = "/sandbox/content/";

/** Why a signed URL was refused. */
export type SignatureCheck = "valid" | "expired" | "invalid";

/** Makes and checks download URLs signed with HMAC-SHA256 over the file id and the expiry time. */
export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An absolute URL on `baseUrl` that serves the file's contents until it expires. */
  sign(baseUrl: string, fileId: string): string {
    const expires = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const query = new URLSearchParams({ expires: String(expires), signature: this.signature(fileId, expires) });
    return `${baseUrl}${CONTENT_PATH_PREFIX}${encodeURIComponent(fileId)}?${query}`;
  }

  /** Checks a URL's expiry and signature, in constant time for the signature. */
  verify(fileId: string, expires: string | null, signature: string | null): SignatureCheck {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return "invalid";
    const expected = Buffer.from(this.signature(fileId, Number(expires)), "hex");
    if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "invalid";
    // The expiry is checked after the signature, so that a forged expiry is "invalid", not "expired".
    return Number(expires) * 1000 <= this.now() ? "expired" : "valid";
  }

  private signature(fileId: string, expires: number): string {
    // A separator that cannot occur in the decimal expiry keeps (id, expiry) pairs unambiguous.
    return createHmac("sha256", this.secret).update(`${fileId}\n${expires}`).digest("hex");
  }
}
