/**
 * Preloaded into the Prism mock (`node --require`): Prism loads postman-collection (about 200 modules, 70 ms of its
 * start) for Postman collections, which the kit never gives it. This hands Prism a stand-in that loads the real
 * package on first use, so that a Postman collection would still work, and an OpenAPI document never pays for it.
 */
const Module = require("node:module");

const load = Module._load;
Module._load = function loadPostmanLazily(request, parent, isMain) {
  if (request !== "postman-collection") return load.apply(this, arguments);
  let real;
  const loaded = () => (real ??= load.call(this, request, parent, isMain));
  return new Proxy(
    {},
    {
      get: (_, key) => loaded()[key],
      has: (_, key) => key in loaded(),
      ownKeys: () => Reflect.ownKeys(loaded()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(loaded(), key);
        // A proxy may not report a property its target lacks as non-configurable.
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
};
