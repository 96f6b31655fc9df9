// msw is an optional peer dependency of the fake: loaded if the app has it, so that an app without it can still
// use the fake's fetch. (The CommonJS build of the testing entry swaps this module for a `require` in a try.)
/** The msw package, or undefined when the app does not have it. */
export const msw: typeof import("msw") | undefined = await import("msw").catch(() => undefined);
