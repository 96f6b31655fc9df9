import { describeOperation } from "./support/run-checks.ts";

describeOperation("getFile");
