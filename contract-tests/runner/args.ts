import { parseArgs } from "node:util";

/** Settings of a contract run, from flags; anything else comes from the environment. */
export interface ContractArgs {
  baseUrl?: string | undefined;
  fileId?: string | undefined;
  /** Check the embedded Prism mock even when FILE_LIBRARY_BASE_URL is set (`npm run contract` only). */
  mock: boolean;
  help: boolean;
  version: boolean;
  listChecks: boolean;
  checks?: string | undefined;
  excludeChecks?: string | undefined;
  seed?: string | undefined;
  /** Run the checks in an order drawn from the seed. */
  shuffle: boolean;
  reportDir?: string | undefined;
  /** Requests per second, minute or hour at most ("10/s"). */
  rateLimit?: string | undefined;
}

/** A flag is wrong: the run cannot start. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parses the runner's flags; rejects unknown ones and a key given on the command line. `--mock` exists only where a mock can start. */
export function parseContractArgs(argv: string[], { mockFlag }: { mockFlag: boolean }): ContractArgs {
  if (argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key="))) {
    // Command lines end up in shell history and process lists.
    throw new UsageError(
      "--api-key is not accepted: give the key only through FILE_LIBRARY_API_KEY in the environment.",
    );
  }
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        "base-url": { type: "string" },
        "file-id": { type: "string" },
        ...(mockFlag ? { mock: { type: "boolean", default: false } as const } : {}),
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
        "list-checks": { type: "boolean", default: false },
        checks: { type: "string" },
        "exclude-checks": { type: "string" },
        seed: { type: "string" },
        shuffle: { type: "boolean", default: false },
        "report-dir": { type: "string" },
        "rate-limit": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.seed !== undefined && !/^-?\d+$/.test(values.seed))
      throw new UsageError(`--seed takes a whole number, got ${JSON.stringify(values.seed)}`);
    return {
      baseUrl: values["base-url"],
      fileId: values["file-id"],
      mock: (values as { mock?: boolean }).mock ?? false,
      help: values.help ?? false,
      version: values.version ?? false,
      listChecks: values["list-checks"] ?? false,
      checks: values.checks,
      excludeChecks: values["exclude-checks"],
      seed: values.seed,
      shuffle: values.shuffle ?? false,
      reportDir: values["report-dir"],
      rateLimit: values["rate-limit"],
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}
