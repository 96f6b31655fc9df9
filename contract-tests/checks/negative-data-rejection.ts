import { invalidBodies, wrongBodies, type GeneratedBody } from "../inputs/generators.ts";
import { readFileState } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

// Prism and many frameworks answer a body that is not JSON with 400, others with 422: both reject it.
const REJECTED = new Set([400, 422]);

/** negative_data_rejection: update bodies that break the schema in one place get 400 or 422 and change nothing. */
export const negativeDataRejection = scenarioCheck(
  "negative_data_rejection",
  "Update bodies that break the schema in one place get 400 or 422 (decisions.md, D15) and change nothing: every single-field wrong type, every wrong item type and the whole-body cases in every run, generated ones on top.",
  {
    operations: ["updateFile"],
    async run(s) {
      const before = s.target.mode === "live" ? await readFileState(s) : undefined;
      const schema = s.spec.requestBodySchema("updateFile", "application/json");
      const reject = async (body: GeneratedBody) => {
        const ex = await s.send({
          fileId: s.target.fileId,
          ...("raw" in body ? { rawBody: body.raw } : { json: body.json }),
        });
        if (!REJECTED.has(ex.status))
          s.fail(`a body with ${body.breaks} got HTTP ${ex.status}, expected 400 or 422`, ex);
      };
      // Derived from the schema and sent whatever the seed: a server that accepts one of them fails every run.
      for (const body of wrongBodies(s.spec, schema)) {
        s.record(body.kind);
        await reject(body);
      }
      await s.forAll(invalidBodies(s.spec, schema), async (body) => {
        s.record("generated from the seed");
        await reject(body);
      });
      if (before) {
        const after = await readFileState(s);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          s.fail(`rejected updates changed the file: ${JSON.stringify(before)} became ${JSON.stringify(after)}`);
        }
      }
    },
  },
);
