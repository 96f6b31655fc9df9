/**
 * Where JSON stops being JSON: V8's JSON.parse names an offset for some errors only ("Unexpected token ','" names
 * none), so a Pact file's reader finds it itself. A scanner of RFC 8259's grammar, with an explicit stack (no
 * recursion, so no depth overflows it); it only runs on text JSON.parse refused.
 */

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null/y;

/** The offset of the first character that breaks the grammar, or the text's length when it ends too soon; -1 when it is JSON. */
export function jsonErrorOffset(text: string): number {
  // What comes next: a value, a member's name, or what may follow a value or a name inside the open containers.
  type Expect = "value" | "name" | "colon" | "after";
  const open: Array<"{" | "["> = [];
  let expect: Expect = "value";
  let at = 0;
  const skip = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++;
  };
  const token = (pattern: RegExp) => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  for (;;) {
    skip();
    if (at >= text.length) return expect === "after" && open.length === 0 ? -1 : at;
    const c = text[at]!;
    if (expect === "value") {
      if (c === "{" || c === "[") {
        open.push(c);
        at++;
        skip();
        if (text[at] === (c === "{" ? "}" : "]")) {
          open.pop();
          at++;
          expect = "after";
        } else expect = c === "{" ? "name" : "value";
      } else if (token(STRING) || token(NUMBER) || token(LITERAL)) expect = "after";
      else return at;
    } else if (expect === "name") {
      if (!token(STRING)) return at;
      expect = "colon";
    } else if (expect === "colon") {
      if (c !== ":") return at;
      at++;
      expect = "value";
    } else {
      const inside = open.at(-1);
      if (inside === undefined) return at;
      if (c === ",") {
        at++;
        expect = inside === "{" ? "name" : "value";
      } else if (c === (inside === "{" ? "}" : "]")) {
        open.pop();
        at++;
      } else return at;
    }
  }
}
