import { findings, responseCheck } from "./types.ts";

/** not_a_server_error: no answer is a 5xx, whatever the request. */
export const notAServerError = responseCheck(
  "not_a_server_error",
  "No request, valid or not, makes the server answer 5xx, documented or not (decisions.md, D15).",
  (ex) => findings(ex.status >= 500 ? [`the server failed with HTTP ${ex.status}`] : []),
);
