import { isDistinctive, isSecretName, MAX_DEPTH, redactString } from "../../src/redact.ts";

/** What an echo is looked for in: an answer's headers and its body as text. */
export interface EchoSource {
  headers: { forEach(callback: (value: string, name: string) => void): void };
  text: string;
}

/**
 * Where an answer sends back one of the credentials (the key, or what the request sent in its place): "the body",
 * "header x-debug". A distinctive credential is found anywhere. One that could be an ordinary word ("test", "file",
 * "application") only where it can be told from data: a header that is the credential alone (or a scheme and it), a
 * body that is it alone, or a JSON member named like a credential (`token`, `authorization`) that holds it as a word.
 * So a key's spelling never turns `content-type: application/json` or a file's label into an echo
 * (docs/decisions.md, D29).
 */
export function echoesOf(answer: EchoSource, credentials: readonly string[]): string[] {
  const places = new Set<string>();
  for (const credential of new Set(credentials)) {
    if (!credential) continue;
    const distinctive = isDistinctive(credential);
    const holds = (value: string) => (distinctive ? value.includes(credential) : alone(value, credential));
    // Most bodies do not hold it at all: nothing is parsed for them.
    if (
      answer.text.includes(credential) &&
      (distinctive || answer.text.trim() === credential || inCredentialMember(answer.text, credential))
    )
      places.add("the body");
    answer.headers.forEach((value, name) => {
      if (holds(value)) places.add(`header ${name}`);
    });
  }
  return [...places];
}

/** The value is the credential alone, or a scheme and it ("Bearer test"). */
const alone = (value: string, credential: string): boolean => {
  const trimmed = value.trim();
  return (
    trimmed === credential ||
    (trimmed.endsWith(credential) && /^[A-Za-z][\w.+-]* +$/.test(trimmed.slice(0, -credential.length)))
  );
};

/** Whether a JSON body has a member named like a credential whose string value holds the credential as a word. */
function inCredentialMember(text: string, credential: string): boolean {
  let body: unknown;
  // Stryker disable BlockStatement: equivalent for the catch (with no body parsed, the walk below finds nothing
  // either); the try's own block, which the tests would catch, is left out with it.
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  // Stryker restore BlockStatement
  const walk = (value: unknown, depth: number): boolean => {
    // A hostile body is walked no deeper than the client copies one (src/redact.ts): 64 levels.
    if (value === null || depth >= MAX_DEPTH) return false;
    // Stryker disable next-line ConditionalExpression: equivalent; a string walked as an object of its characters
    // holds no member named like a credential, down to the depth limit.
    if (typeof value !== "object") return false;
    return Object.entries(value).some(
      ([name, item]) =>
        (isSecretName(name) && typeof item === "string" && redactString(item, [credential]) !== item) ||
        walk(item, depth + 1),
    );
  };
  return walk(body, 0);
}
