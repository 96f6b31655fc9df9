/**
 * What to do when something a test needs is missing (a browser, a runtime, Java): under CI=true fail (.ci/run installs
 * what the tests need), so that CI never passes without having run them; elsewhere skip, with a line that says what to
 * install.
 */
export function missing(file: string, what: string, install: string): undefined {
  if (process.env.CI === "true") throw new Error(`${file}: ${what}; .ci/run should have installed it (${install}).`);
  console.warn(`${file} skipped: ${what}. ${install} to run it.`);
  return undefined;
}
