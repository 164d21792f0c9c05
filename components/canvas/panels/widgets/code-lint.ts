import { javascriptLanguage } from "@codemirror/lang-javascript";
import type { SyntaxNode } from "@lezer/common";

/** One problem in a code node's source, as a range of characters. */
export interface CodeProblem {
  /** Start offset. */
  from: number;
  /** End offset (at least one character). */
  to: number;
  /** For people. */
  message: string;
}

const FUNCTION_NODES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunction", "MethodDeclaration"]);

function enclosingFunction(node: SyntaxNode): SyntaxNode | null {
  for (let parent = node.parent; parent; parent = parent.parent) if (FUNCTION_NODES.has(parent.name)) return parent;
  return null;
}

function isAsync(functionNode: SyntaxNode, code: string): boolean {
  return /^async\b/.test(code.slice(functionNode.from, functionNode.to));
}

/**
 * Checks a code node's JavaScript the way the sandbox will run it (lib/tools/sandbox): the
 * source is evaluated as a *script*, not as a function body, and `main(inputs)` is called when
 * it is defined. So besides syntax errors, a `return` outside a function ("return not in a
 * function", the old default's failure) and an `await` outside an async function are errors.
 * The grammar is CodeMirror's (Lezer) JavaScript parser, which the editor already ships.
 */
export function findCodeProblems(code: string): CodeProblem[] {
  const problems: CodeProblem[] = [];
  const tree = javascriptLanguage.parser.parse(code);
  tree.iterate({
    enter(ref) {
      const at = (message: string) =>
        problems.push({ from: ref.from, to: Math.min(code.length, Math.max(ref.to, ref.from + 1)), message });
      if (ref.type.isError) {
        at("Syntax error: the code does not parse here");
        return false;
      }
      if (ref.name === "ReturnStatement" && enclosingFunction(ref.node) === null) {
        at("return is only allowed inside a function: write function main(inputs) { … return …; }");
      }
      if (ref.name === "AwaitExpression") {
        const owner = enclosingFunction(ref.node);
        if (owner === null || !isAsync(owner, code)) at("await is only allowed inside an async function");
      }
      return undefined;
    },
  });
  return problems;
}
