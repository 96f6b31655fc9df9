import { responseCheck } from "./types.ts";

/** no_secret_echo: the API key never comes back, in a header or a body. */
export const noSecretEcho = responseCheck({
  kind: "response",
  name: "no_secret_echo",
  description: "The API key never comes back in a response header or body.",
  inspect: (ex) => ({
    failures: ex.secretEchoedIn.length > 0 ? [`the API key came back in ${ex.secretEchoedIn.join(", ")} (shown here redacted)`] : [],
    warnings: [],
  }),
});
