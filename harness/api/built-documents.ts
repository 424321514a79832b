// The project's own documents (spec/*.yaml) as the build parsed them. None here: from
// sources (Vitest, tsc's dist/) documents.ts parses the YAML at run time. The CLI's
// bundle (build/bundle.ts) has generated contents in place of this module, so a run
// parses no YAML (the parser is slow to load and to run).
export interface BuiltDocument {
  /** sha256 (hex) of the YAML text it was parsed from: a file changed since the build is parsed again. */
  sha256: string;
  /** The document as JSON text (parsed on each read, so that no caller shares another's copy). */
  json: string;
}

/** By file name (openapi.yaml, quickstart.yaml, requirements.yaml). */
export const builtDocuments: Readonly<Record<string, BuiltDocument>> | undefined = undefined;
