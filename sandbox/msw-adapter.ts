import type { HttpHandler } from "msw";
import type { Service } from "./core/plain.ts";
import { plainRequestOf, toResponse } from "./fetch-adapter.ts";
import { msw } from "./msw-module.ts";

/** MSW handlers that serve `service` on `baseUrl`: every method, every path under it (the signed URLs too). */
export function mswAdapter(service: Service, baseUrl: string): HttpHandler[] {
  if (!msw) throw new Error("mswHandlers() needs the msw package: npm install --save-dev msw (2.x).");
  const { http, HttpResponse } = msw;
  return [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const plain = await plainRequestOf(request, baseUrl);
      if (!plain) return undefined;
      const answer = await service(plain);
      // A dropped connection is MSW's network error: the app's fetch rejects, as it would.
      return answer.drop ? HttpResponse.error() : toResponse(answer, request.method);
    }),
  ];
}
