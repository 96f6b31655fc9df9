import type { OpenApiValidator } from "./validator.ts";

/** A request matched to an operation of the spec. */
export interface RouteMatch {
  /** The operation, or undefined when the path exists but not with this method. */
  operationId: string | undefined;
  /** The methods the path has, for an `Allow` header. */
  allow: string[];
  /** Path parameters, percent-decoded; undefined where a segment is not valid percent-encoding. */
  params: Record<string, string | undefined>;
}

interface Route {
  pattern: RegExp;
  names: string[];
  operations: Map<string, string>;
}

/** Builds a router from the spec's paths, so the sandbox serves exactly the documented operations. */
export function createRouter(
  spec: Pick<OpenApiValidator, "document">,
): (method: string, rawPath: string) => RouteMatch | undefined {
  const routes: Route[] = Object.entries(spec.document.paths).map(([template, item]) => {
    const names: string[] = [];
    const source = template
      .split("/")
      .map((segment) => {
        const param = /^\{(.+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(param[1]!);
        // A parameter is one raw segment: an encoded "/" (%2F) stays inside it.
        return "([^/]+)";
      })
      .join("/");
    const operations = new Map<string, string>();
    for (const [method, operation] of Object.entries(item)) {
      const id = (operation as { operationId?: unknown } | undefined)?.operationId;
      if (typeof id === "string") operations.set(method.toUpperCase(), id);
    }
    return { pattern: new RegExp(`^${source}$`), names, operations };
  });

  return (method, rawPath) => {
    for (const route of routes) {
      const match = route.pattern.exec(rawPath);
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((name, i) => [name, safeDecode(match[i + 1]!)]));
      return { operationId: route.operations.get(method.toUpperCase()), allow: [...route.operations.keys()], params };
    }
    return undefined;
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
