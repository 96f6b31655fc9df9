import { describeOperation } from "./run/run-checks.ts";

describeOperation("getFile");
