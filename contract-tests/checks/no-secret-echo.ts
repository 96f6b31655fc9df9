import { findings, responseCheck } from "./types.ts";

/** no_secret_echo: the API key never comes back, in a header or a body. */
export const noSecretEcho = responseCheck(
  "no_secret_echo",
  "The API key never comes back in a response header or body.",
  (ex) =>
    findings(
      ex.secretEchoedIn.length > 0
        ? [`the API key came back in ${ex.secretEchoedIn.join(", ")} (shown here redacted)`]
        : [],
    ),
);
