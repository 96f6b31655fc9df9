import { responseCheck } from "./types.ts";

/** not_a_server_error: no answer is a 5xx, whatever the request. */
export const notAServerError = responseCheck({
  kind: "response",
  name: "not_a_server_error",
  description: "No request, valid or not, makes the server answer 5xx.",
  inspect: (ex) => ({ failures: ex.status >= 500 ? [`the server failed with HTTP ${ex.status}`] : [], warnings: [] }),
});
