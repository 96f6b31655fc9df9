import { describe, expect, it } from "vitest";
import { call, FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

describe("nodeRequestListener's log", () => {
  it("never prints the key, nor the request's own token, where a path holds it (as it came or percent-encoded)", async () => {
    // A key with characters a path percent-encodes.
    const key = "log-Key 9/f3+q7";
    const sb = await sandbox({ apiKey: key });
    try {
      for (const id of [key, encodeURIComponent(key), SANDBOX_KEY]) {
        const answer = await fetch(`${sb.baseUrl}${FILES}/${encodeURIComponent(id)}/download`, {
          headers: { authorization: `Bearer ${id === SANDBOX_KEY ? SANDBOX_KEY : encodeURIComponent(key)}` },
        });
        await answer.arrayBuffer();
      }
      await (await call(sb.baseUrl, `${FILES}/${SANDBOX_KEY}`)).arrayBuffer();
    } finally {
      await sb.close();
    }
    expect(sb.logs).toHaveLength(4);
    for (const line of sb.logs) {
      expect(line).toMatch(/^GET \/studio\/v1\/library\/files\/\[REDACTED\](\/download)? \d{3} /);
      for (const secret of [key, encodeURIComponent(key), encodeURIComponent(encodeURIComponent(key)), SANDBOX_KEY])
        expect(line).not.toContain(secret);
    }
  });

  it("never prints the key percent-encoded in either hex case, fully or partly, once or up to three times (sk_Abc%2bdef…, %73%6B…, %64ev-key-54, %2564ev-key-54)", async () => {
    const escapeAll = (text: string) =>
      [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
    for (const key of ["sk_Abc+def/ghi=", "dev-key-54"]) {
      const encoded = encodeURIComponent(key);
      const forms = [
        encoded,
        encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
        escapeAll(key),
        escapeAll(key).toLowerCase(),
        `${escapeAll(key[0]!)}${encoded.slice(1)}`,
        // Encoded twice (a client that encodes an id already encoded), and three times: `%25` is `%`.
        encodeURIComponent(encoded),
        `%25${escapeAll(key[0]!).slice(1)}${encoded.slice(1)}`,
        encodeURIComponent(encodeURIComponent(encoded)),
      ];
      const sb = await sandbox({ apiKey: key });
      try {
        for (const id of forms)
          await (
            await fetch(`${sb.baseUrl}${FILES}/${id}`, { headers: { authorization: `Bearer ${key}` } })
          ).arrayBuffer();
      } finally {
        await sb.close();
      }
      expect(sb.logs).toHaveLength(forms.length);
      for (const line of sb.logs) {
        expect(line).toMatch(/^GET \/studio\/v1\/library\/files\/\[REDACTED\] \d{3} /);
        for (const form of [key, ...forms]) expect(line.toLowerCase()).not.toContain(form.toLowerCase());
      }
    }
  });
});
