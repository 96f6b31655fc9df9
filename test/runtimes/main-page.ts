/** The scenarios in a web page: the test calls `runScenarios(config)` through the browser and gets the results. */
import { runScenarios } from "./scenarios.ts";

(globalThis as unknown as { runScenarios: typeof runScenarios }).runScenarios = runScenarios;
