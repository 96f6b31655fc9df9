import { describeOperation } from "./support/run-checks.ts";

describeOperation("getFileDownloadUrl");
