import "server-only";
/**
 * An OpenAPI document cannot be turned into tools. The message starts with the location in the
 * document (e.g. `paths./pets.get.parameters[0]: missing name`) so the settings page can point at it.
 * Code `openapi_invalid`.
 */
export class OpenApiSpecError extends Error {
  /** Stable code. */
  readonly code = "openapi_invalid";
  /** Dotted location inside the document, `(document)` for the whole thing. */
  readonly location: string;
  /** What is wrong there. */
  readonly problem: string;

  constructor(location: string, problem: string) {
    super(`${location}: ${problem}`);
    this.name = "OpenApiSpecError";
    this.location = location;
    this.problem = problem;
  }
}
