import { isAlias, isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import { isDifyExportAnswer } from "../detect-format";
import { formatPath, ImportFileError, MAX_IMPORT_CHARACTERS } from "../errors";
import { type DifyFile, difyFileSchema } from "./schema";

/** At most this many alias uses (`*name`): a few are normal, thousands are a billion-laughs bomb. */
const MAX_ALIASES = 100;
/** Deeper nesting than this is not a workflow export. */
const MAX_DEPTH = 64;

/**
 * Parses and validates a Dify DSL file. Throws {@link ImportFileError} naming the path for
 * anything that is not a workflow/advanced-chat app export; never anything else.
 */
export function parseDifyFile(text: string): DifyFile {
  if (text.length > MAX_IMPORT_CHARACTERS) {
    throw new ImportFileError(
      "import_too_large",
      "(file)",
      `The file is larger than ${MAX_IMPORT_CHARACTERS / 1024 / 1024} MB`,
    );
  }
  let value = readYaml(text);
  // Dify's export API answers `{ "data": "<the YAML>" }`; export scripts save that answer as is.
  if (isDifyExportAnswer(value)) value = readYaml(value.data);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ImportFileError(
      "invalid_import",
      "(root)",
      "The file must be a YAML mapping (kind, version, app, workflow)",
    );
  }
  const parsed = difyFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportFileError("invalid_import", formatPath(issue.path), issue.message);
  }
  return parsed.data;
}

/** The YAML (or JSON) text as a value, refusing bombs; every failure an ImportFileError. */
function readYaml(text: string): unknown {
  if (text.trim() === "") throw new ImportFileError("invalid_import", "(file)", "The file is empty");
  let document: ReturnType<typeof parseDocument>;
  try {
    document = parseDocument(text, { uniqueKeys: false });
  } catch (error) {
    throw new ImportFileError("invalid_import", "(file)", `Not valid YAML: ${(error as Error).message}`);
  }
  const first = document.errors[0];
  if (first) {
    const line = first.linePos?.[0];
    const where = line ? `line ${line.line}, column ${line.col}` : "(file)";
    throw new ImportFileError("invalid_import", where, `Not valid YAML: ${first.message.split("\n")[0]}`);
  }
  checkShape(document);
  try {
    return document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new ImportFileError("invalid_import", "(file)", `Cannot read the YAML: ${(error as Error).message}`);
  }
}

/** Refuses alias bombs and absurd nesting before anything is expanded. */
function checkShape(document: ReturnType<typeof parseDocument>): void {
  let aliases = 0;
  let failure: ImportFileError | undefined;
  visit(document, (_key, node, path) => {
    if (isAlias(node)) {
      aliases++;
      if (aliases > MAX_ALIASES) {
        failure = new ImportFileError(
          "invalid_import",
          "(file)",
          `More than ${MAX_ALIASES} YAML aliases; refusing to expand them`,
        );
        return visit.BREAK;
      }
    }
    if ((isMap(node) || isSeq(node) || isScalar(node)) && path.length > MAX_DEPTH * 2) {
      failure = new ImportFileError("invalid_import", "(file)", `Nested deeper than ${MAX_DEPTH} levels`);
      return visit.BREAK;
    }
    return undefined;
  });
  if (failure) throw failure;
}
