// The reference server's schema compiler: Ajv with ajv-formats. The build compiles the
// documented NewPet with it into standalone code, so that the bundled server starts
// without loading Ajv.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS: Node hands over the module object, a bundler the function
const addFormats = ((formatsModule as any).default ?? formatsModule) as FormatsPlugin;

export function referenceCompiler(options: Options = {}): Ajv2020 {
  // validateSchema off: the schemas are the project's own, and checking cost ~60 ms a start
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, ...options });
  addFormats(ajv);
  return ajv;
}
