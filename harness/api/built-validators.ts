// None here: the CLI's bundle puts the build's generated validators in place of this module (build/bundle.ts); from sources, spec.ts
// compiles the schemas at run time.
import type { ValidateFunction } from 'ajv';

export interface BuiltValidators {
  /** Of the YAML text: a document edited since the build is compiled at run time. */
  sha256: string;
  schemas: Readonly<Record<string, ValidateFunction>>;
}

export const builtValidators: Readonly<Record<string, BuiltValidators>> | undefined = undefined;
