import { readFile } from "node:fs/promises";
import type { Plugin } from "esbuild";
import ts from "typescript";

/** Source edits: replace [start, end) with text. Applied from the end, so earlier offsets stay valid. */
type Edit = [start: number, end: number, text: string];

const applyEdits = (text: string, edits: Edit[]) =>
  edits
    .sort((a, b) => b[0] - a[0])
    .reduce((out, [start, end, with_]) => out.slice(0, start) + with_ + out.slice(end), text);

/** A plugin that rewrites with `rewrite` the TypeScript files whose absolute path `matches`; the others load as usual. */
function rewriting(name: string, matches: (file: string) => boolean, rewrite: (file: ts.SourceFile) => string): Plugin {
  return {
    name,
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!matches(args.path)) return undefined;
        const text = await readFile(args.path, "utf8");
        return { contents: rewrite(ts.createSourceFile(args.path, text, ts.ScriptTarget.ES2022, true)), loader: "ts" };
      });
    },
  };
}

/**
 * Replaces the module `file` (an absolute path) by empty stand-ins with the same value exports, so that the bundle
 * without it measures what it costs, with whatever only it uses. The bundle need not run; it only has to link.
 */
export function stubModule(file: string): Plugin {
  return rewriting(
    "stub-module",
    (path) => path === file,
    (source) => {
      const stubs: string[] = [];
      for (const statement of source.statements) {
        const exported =
          ts.canHaveModifiers(statement) &&
          ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        if (ts.isClassDeclaration(statement) && statement.name) stubs.push(`export class ${statement.name.text} {}`);
        if (ts.isFunctionDeclaration(statement) && statement.name)
          stubs.push(`export function ${statement.name.text}(): any {}`);
        if (ts.isVariableStatement(statement)) {
          for (const declaration of statement.declarationList.declarations)
            stubs.push(`export const ${declaration.name.getText()}: any = 0;`);
        }
      }
      return stubs.join("\n");
    },
  );
}

/**
 * Empties every string of `minLength` characters or more in the files under `folder`: what the code costs without
 * its messages' text. A template keeps its interpolated expressions, so the code that computes them stays.
 */
export function emptyProse(folder: string, minLength = 20): Plugin {
  return rewriting(
    "empty-prose",
    (path) => path.startsWith(folder),
    (source) => {
      const edits: Edit[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
        if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text.length >= minLength) {
          edits.push([node.getStart(), node.getEnd(), '""']);
          return;
        }
        if (ts.isTemplateExpression(node)) {
          const literal =
            node.head.text.length + node.templateSpans.reduce((sum, span) => sum + span.literal.text.length, 0);
          if (literal >= minLength) {
            edits.push([
              node.getStart(),
              node.getEnd(),
              `String([${node.templateSpans.map((span) => span.expression.getText()).join(", ")}])`,
            ]);
            return;
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      return applyEdits(source.text, edits);
    },
  );
}
