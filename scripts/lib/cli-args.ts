import { parseArgs } from "node:util";

/** Settings of `npm run contract`, from flags; anything else comes from the environment. */
export interface ContractArgs {
  baseUrl?: string | undefined;
  fileId?: string | undefined;
  /** Check the embedded Prism mock even when FILE_LIBRARY_BASE_URL is set (what `npm test` uses). */
  mock: boolean;
  help: boolean;
}

/** A flag is wrong: the run cannot start. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parses the runner's flags; rejects unknown ones and a key given on the command line. */
export function parseContractArgs(argv: string[]): ContractArgs {
  if (argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key="))) {
    // Command lines end up in shell history and process lists.
    throw new UsageError("--api-key is not accepted: give the key only through FILE_LIBRARY_API_KEY in the environment.");
  }
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        "base-url": { type: "string" },
        "file-id": { type: "string" },
        mock: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    return { baseUrl: values["base-url"], fileId: values["file-id"], mock: values.mock ?? false, help: values.help ?? false };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
