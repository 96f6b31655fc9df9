/**
 * Preloaded into the Prism mock (`node --require`): Prism loads faker's every locale (1.2 s of its 1.9 s start on our
 * 2-core machine) to use only its default, English instance. This hands it faker's English-only instance instead, the
 * same object for Prism's purposes, as faker's own docs advise for start-up time. Should that entry ever be missing,
 * Prism gets the full package, as without this file.
 */
const Module = require("node:module");

const load = Module._load;
Module._load = function loadEnglishFaker(request, parent, isMain) {
  if (request !== "@faker-js/faker") return load.apply(this, arguments);
  let english;
  try {
    english = load.call(this, "@faker-js/faker/locale/en", parent, isMain);
  } catch {
    return load.apply(this, arguments);
  }
  // faker 6 exports the instance itself; later majors export it as `faker`.
  const faker = english.faker ?? english.default ?? english;
  return { ...english, faker, default: faker };
};
