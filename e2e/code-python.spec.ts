import { expect, test } from "@playwright/test";
import {
  type DifySandboxStub,
  findTestPython,
  startDifySandboxStub,
} from "../lib/tools/sandbox/testing/dify-sandbox-stub";
import { codeDocument, createWorkflow } from "./fixtures/workflows";
import { EditorPage } from "./pages/editor-page";

const JAVASCRIPT_DEFAULT = "function main({ input }) {\n  return { result: input };\n}\n";
const port = Number(process.env.TRELLIS_E2E_PORT ?? 3210);

test("switching a code node to Python swaps the starting code in one undoable step", async ({ page, request }) => {
  const workflowId = await createWorkflow(
    request,
    `E2E code language ${Date.now()}`,
    codeDocument({ code: JAVASCRIPT_DEFAULT }),
  );
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await editor.select("template_1");
  const language = editor.field("language");
  const code = editor.field("code");
  await expect(language.locator("option:checked")).toHaveText("JavaScript");
  await expect(code).toHaveAttribute("data-language", "javascript");

  await language.selectOption({ label: "Python 3" });
  await expect(code).toHaveAttribute("data-language", "python3");
  await expect(code.locator(".cm-content")).toContainText("def main(input: str) -> dict:");
  await expect(code.getByRole("textbox", { name: "Python code" })).toBeVisible();
  await expect(editor.node("template_1").getByTestId("node-summary")).toHaveText("Python · 1 input");
  await expect(page.getByTestId("problems-toggle")).toHaveAttribute("data-error-count", "0");

  await page.getByTestId("undo").click();
  await expect(language.locator("option:checked")).toHaveText("JavaScript");
  await expect(code).toHaveAttribute("data-language", "javascript");
  await expect(code.locator(".cm-content")).toContainText("function main({ input })");
});

test.describe("a Python code node runs on the code sandbox service", () => {
  const python = findTestPython();
  let sandbox: DifySandboxStub | undefined;
  test.beforeAll(async () => {
    if (python) sandbox = await startDifySandboxStub({ python, port: port + 12 });
  });
  test.afterAll(async () => sandbox?.close());

  test("its answer reaches the end node, and a raised error fails the run with the Python message", async ({
    page,
    request,
  }) => {
    test.skip(!python, "no Python on this machine to stand in for the sandbox");
    const workflowId = await createWorkflow(
      request,
      `E2E python ${Date.now()}`,
      codeDocument({
        language: "python3",
        code: 'def main(input: str) -> dict:\n    if not input:\n        raise ValueError("say something")\n    return {"result": input[::-1]}\n',
      }),
    );
    const editor = new EditorPage(page);
    await editor.goto(workflowId);
    await editor.run({ question: "tide pools" });
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
    await expect(page.getByTestId("run-outputs")).toContainText("sloop edit");
    expect(sandbox?.requests.at(-1)?.body).toMatchObject({ language: "python3", enable_network: false });

    await editor.run({ question: "" });
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
    await expect(page.getByTestId("run-panel")).toContainText("ValueError: say something");
  });
});
