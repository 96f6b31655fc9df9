/**
 * The scenarios as a Cloudflare Worker, run by `workerd test`: the configuration comes as the CONFIG binding
 * (JSON), and the results go to the log as one line of JSON.
 */
import { runScenarios, type ScenarioConfig } from "./scenarios.ts";

export default {
  async test(_controller: unknown, env: { CONFIG: ScenarioConfig }): Promise<void> {
    console.log(`RESULTS ${JSON.stringify(await runScenarios(env.CONFIG))}`);
  },
};
