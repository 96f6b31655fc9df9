import { describeOperation } from "./run/run-checks.ts";

describeOperation("getFileDownloadUrl");
