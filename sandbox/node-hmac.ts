import { createHmac } from "node:crypto";
import type { Hmac } from "./core/signed-urls.ts";

/** HMAC-SHA256 through node:crypto: synchronous, and several times faster than WebCrypto's for one short text. */
export const nodeHmac =
  (secret: Uint8Array): Hmac =>
  (text) =>
    createHmac("sha256", secret).update(text).digest("hex");
