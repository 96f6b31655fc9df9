/**
 * The scenarios as a command, for Node, Bun and Deno: the configuration comes as the first argument (JSON), and
 * the results go to standard output as one line of JSON. Deno runs it with --allow-net only.
 */
import { runScenarios, type ScenarioConfig } from "./scenarios.ts";

const { Deno, process } = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const args = Deno ? Deno.args : process!.argv.slice(2);
const results = await runScenarios(JSON.parse(args[0]!) as ScenarioConfig);
console.log(`RESULTS ${JSON.stringify(results)}`);
