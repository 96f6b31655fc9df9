import type { RecordedExchange } from "./format.ts";

/** What the deployment answered, as the consumer's contract reads it. */
export interface ReplayedAnswer {
  status: number;
  /** The body's text once decoded; undefined when it could not be read whole. */
  text: string | undefined;
}

type JsonType = "null" | "array" | "object" | "string" | "number" | "boolean";

const typeOf = (value: unknown): JsonType =>
  value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as JsonType);

const parsed = (text: string | undefined): { value: unknown } | undefined => {
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch {
    return undefined;
  }
};

/** The URL a download answer carries: its text, or a JSON string's value (the spec allows both), trimmed. */
function downloadUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const json = parsed(text);
  const url = (typeof json?.value === "string" ? json.value : text).trim();
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) ? url : undefined;
}

/**
 * The app's side of the contract (docs/recording-format.md, What a replay holds the deployment to): the status the app
 * got; for a JSON answer, every member the app got, at any depth, with the same JSON type (values may differ; an
 * array's first item stands for its items); for the download, a URL. A body that was not recorded (elided) is held to
 * its status only. Resolves with each way the answer breaks it, in words.
 */
export function consumerProblems(
  operation: string,
  recorded: RecordedExchange["response"],
  replayed: ReplayedAnswer,
): string[] {
  if (replayed.status !== recorded.status)
    return [`the app got HTTP ${recorded.status}; the deployment answers HTTP ${replayed.status}`];
  const body = recorded.body;
  if (body === null || !("text" in body)) return [];
  if (operation === "getFileDownloadUrl" && replayed.status === 200 && downloadUrl(body.text) !== undefined) {
    return downloadUrl(replayed.text) === undefined
      ? [`the app got a download URL; the deployment answers ${shown(replayed.text)}, which is no absolute http(s) URL`]
      : [];
  }
  const before = parsed(body.text);
  if (!before) return [];
  const after = parsed(replayed.text);
  if (!after) return [`the app got JSON; the deployment answers ${shown(replayed.text)}, which is not JSON`];
  const problems: string[] = [];
  compare(before.value, after.value, "$", problems);
  return problems;
}

function compare(before: unknown, after: unknown, at: string, problems: string[]): void {
  if (problems.length >= 20) return;
  const [was, is] = [typeOf(before), typeOf(after)];
  if (was !== is) {
    problems.push(
      `${at} was ${article(was)} (${shownJson(before)}) for the app; the deployment sends ${article(is)} (${shownJson(after)})`,
    );
    return;
  }
  if (was === "array") {
    const [first, now] = [(before as unknown[])[0], (after as unknown[])[0]];
    if (first !== undefined && now !== undefined) compare(first, now, `${at}[0]`, problems);
    return;
  }
  if (was !== "object") return;
  const then = before as Record<string, unknown>;
  const current = after as Record<string, unknown>;
  for (const key of Object.keys(then)) {
    const path = /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
    if (!Object.hasOwn(current, key))
      problems.push(`${path} is missing: the app got ${article(typeOf(then[key]))} there`);
    else compare(then[key], current[key], path, problems);
  }
}

const article = (type: JsonType) =>
  type === "null" ? "null" : type === "array" || type === "object" ? `an ${type}` : `a ${type}`;

const shownJson = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

const shown = (text: string | undefined) =>
  text === undefined ? "a body it could not read" : JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
