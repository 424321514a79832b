// The reference server's schema compiler: Ajv with ajv-formats. options.ts compiles with
// it a NewPet schema a test gives; the build compiles the documented NewPet with it into
// standalone code (build/bundle.ts, built-new-pet.ts), so that the bundled server starts
// without loading Ajv (10 ms of its start).
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: Node hands its default export over as the module object,
// a bundler (Vitest) as the function itself
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

export function referenceCompiler(options: Options = {}): Ajv2020 {
  // no coerceTypes: "7" is not an integer; validateSchema off: the schema is the project's
  // own, proved valid by the self-tests, and checking it cost ~60 ms of every server start
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, ...options });
  addFormats(ajv);
  return ajv;
}
